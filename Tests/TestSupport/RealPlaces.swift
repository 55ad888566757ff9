import Foundation
import MapSearch

/// The 34,000 places the app ships (Resources/places.tsv), read once for every test that
/// searches the real world.
public let realPlaces: PlaceIndex = {
    PlaceIndex(reading: (try? Data(contentsOf: packageRoot.appendingPathComponent("Resources/places.tsv"))) ?? Data())
}()
