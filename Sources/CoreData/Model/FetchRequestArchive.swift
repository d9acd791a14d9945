import Foundation

/// A fetch request inside a keyed archive.
///
/// swift-corelibs-foundation's `NSKeyedArchiver` names every class of an archived object's
/// hierarchy with `NSStringFromClass`, which stops the program for a generic class such as
/// ``NSFetchRequest``. Objects that archive fetch requests (a model's templates) archive this
/// non-generic holder instead; it writes and reads the request's own fields through
/// ``NSFetchRequest/encode(with:)`` and ``NSFetchRequest/init(coder:)``.
final class FetchRequestArchive: NSObject, NSCoding {
    let request: NSFetchRequest<NSFetchRequestResult>

    init(_ request: NSFetchRequest<NSFetchRequestResult>) {
        self.request = request
    }

    func encode(with coder: NSCoder) {
        request.encode(with: coder)
    }

    init?(coder: NSCoder) {
        guard let request = NSFetchRequest<NSFetchRequestResult>(coder: coder) else { return nil }
        self.request = request
    }
}
