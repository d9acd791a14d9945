import Foundation
import SwiftData

// A travel planner, in the shape of Apple's SwiftData sample code.

enum TripKind: String, Codable {
    case business, leisure, family
}

@Model
final class Trip {
    var name: String
    var destination: String
    var startDate: Date
    var budget: Double = 0
    var isFavorite: Bool = false
    var notes: String?
    var rating: Int = 0
    var kind: TripKind = TripKind.leisure
    @Relationship(deleteRule: .cascade, inverse: \Stop.trip) var stops: [Stop] = []
    var city: City?
    @Transient var viewCount: Int = 0

    init(name: String, destination: String, startDate: Date = Date(timeIntervalSinceReferenceDate: 0)) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
    }
}

@Model
class Stop {
    var title: String
    var position: Int
    var trip: Trip?

    init(title: String, position: Int) {
        self.title = title
        self.position = position
    }
}

@Model
final class City {
    @Attribute(.unique) var code: String
    var name: String
    var trips: [Trip] = []

    init(code: String, name: String) {
        self.code = code
        self.name = name
    }
}

@Model
final class Photo {
    @Attribute(.externalStorage) var data: Data?
    @Attribute(originalName: "caption", hashModifier: "v2") var title: String = ""
    var identifier: UUID
    var link: URL?
    var size: Int32 = 0
    var ratio: Float = 1

    init(identifier: UUID) {
        self.identifier = identifier
    }
}

/// A value type that is not `Codable`: no store attribute type holds it.
struct Opaque {
    var value: Int
}

/// A property type the store cannot hold.
@Model
final class Unmappable {
    var opaque: Opaque = Opaque(value: 0)
    init() {}
}
