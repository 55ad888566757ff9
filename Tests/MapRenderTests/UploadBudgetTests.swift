import Testing
@testable import MapRender

struct UploadBudgetTests {
    @Test func aMovingFrameUploadsWithinItsCPUOrTheAllowance() {
        let b = UploadBudget()
        // The frame's CPU began at 1; its uploads at 1.0028, near the end of its budget.
        let turn = b.turn(still: false, wall: 100, frameCPU: 1, uploadCPU: 1.0028)
        #expect(turn.allows(wall: 100.001, cpu: 1.0029))
        // Past the frame's budget, still within the uploads' own allowance.
        #expect(turn.allows(wall: 100.001, cpu: 1.0031))
        #expect(!turn.allows(wall: 100.001, cpu: 1.0034))
        #expect(!turn.allows(wall: 100 + b.window, cpu: 1.0029))
    }

    @Test func aStillFrameTakesInAllWithinItsWindow() {
        let b = UploadBudget()
        let turn = b.turn(still: true, wall: 100, frameCPU: 1, uploadCPU: 1.002)
        #expect(turn.allows(wall: 100.02, cpu: 1.02))
        #expect(!turn.allows(wall: 100 + b.stillWindow, cpu: 1.002))
    }
}
