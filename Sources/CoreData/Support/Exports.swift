// Apple's CoreData module re-exports Foundation; so does ours, so that `import CoreData`
// alone gives `NSPredicate`, `NSSortDescriptor`, `Date`, `URL` and friends.
@_exported import Foundation
