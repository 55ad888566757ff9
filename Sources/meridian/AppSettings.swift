import FoundationEssentials
import Platform

/// `$XDG_CONFIG_HOME/meridian/settings.json`: what a person sets once for every start.
/// `{"offline": true}` keeps Meridian from ever asking the network (as `--offline` does).
struct AppSettings: Decodable {
    var offline: Bool?

    /// The settings in `folder`; none when there is no file; what is wrong with one is said
    /// (`warn`) and its settings left at their defaults.
    static func read(folder: String?, warn: (String) -> Void) -> AppSettings {
        guard let folder else { return AppSettings() }
        let path = folder + "/settings.json"
        guard FileIO.exists(path) else { return AppSettings() }
        do {
            return try JSONDecoder().decode(AppSettings.self, from: try FileIO.read(path, limit: 1 << 20))
        } catch {
            // TRANSLATORS: %@ is the settings file; what is expected follows.
            warn(tr("%@: not a settings file ({\"offline\": true} or false); the settings are left at their defaults", path))
            return AppSettings()
        }
    }
}
