import Platform

/// How much of the slack after a present the uploads of finished sprites and tiles may take:
/// a cheap frame uploads many, a busy one fewer, so a burst of tiles never pushes a frame past
/// its vsync. A still map has no next vsync to keep: it takes in all that has arrived.
public struct UploadBudget: Sendable {
    /// The frame thread's CPU per frame that uploads after the present may fill up to.
    public var frameCPU = 0.003
    /// However busy the frame, uploads may take this much CPU: a frame that alone costs the
    /// budget (the software compositor draws 1920×1080 in ~3 ms) must still bring in more than
    /// one label per frame, or a screen of them trickles in over seconds.
    public var allowance = 0.0005
    /// Nor do uploads go on longer than this after the present, in wall time.
    public var window = 0.004
    /// How long a still map may take in arrived pictures after a present.
    public var stillWindow = 0.03

    public init() {}

    /// One frame's uploads, begun at `wall` (the frame clock) and `uploadCPU` (the thread's
    /// CPU seconds), of a frame whose CPU began at `frameCPU`.
    package func turn(still: Bool, wall: Double, frameCPU: Double, uploadCPU: Double) -> Turn {
        Turn(deadline: wall + (still ? stillWindow : window), still: still, frameEnds: frameCPU + self.frameCPU,
             allowanceEnds: uploadCPU + allowance)
    }

    package struct Turn {
        let deadline: Double
        let still: Bool
        let frameEnds: Double
        let allowanceEnds: Double

        /// Whether uploads may go on at `wall` with the thread's CPU at `cpu`.
        package func allows(wall: Double, cpu: Double) -> Bool {
            wall < deadline && (still || cpu < frameEnds || cpu < allowanceEnds)
        }
    }
}
