// A stand-in for the parts of Apple's Foundation (and CloudKit, CoreSpotlight) that CoreData's
// headers name, so that Swift's own importer can compute the Swift names of CoreData's API.
#pragma once
#define NS_ASSUME_NONNULL_BEGIN _Pragma("clang assume_nonnull begin")
#define NS_ASSUME_NONNULL_END _Pragma("clang assume_nonnull end")
#define NS_HEADER_AUDIT_BEGIN(...) NS_ASSUME_NONNULL_BEGIN
#define NS_HEADER_AUDIT_END(...) NS_ASSUME_NONNULL_END
#define COREDATA_EXTERN extern
#define API_AVAILABLE(...)
#define API_UNAVAILABLE(...)
// Marks what Apple declares unavailable on iOS (macOS-only API).
#define IOS_UNAVAILABLE __attribute__((swift_attr("@available(iOS, unavailable)")))
#define API_DEPRECATED(...) __attribute__((deprecated))
#define API_DEPRECATED_WITH_REPLACEMENT(...) __attribute__((deprecated))
#define NS_SWIFT_NAME(x) __attribute__((swift_name(#x)))
#define NS_REFINED_FOR_SWIFT __attribute__((swift_private))
#define NS_SWIFT_UNAVAILABLE(msg) __attribute__((availability(swift, unavailable, message=msg)))
#define NS_DESIGNATED_INITIALIZER __attribute__((objc_designated_initializer))
#define NS_UNAVAILABLE __attribute__((unavailable))
#define NS_SWIFT_SENDABLE __attribute__((swift_attr("@Sendable")))
#define NS_SWIFT_NONISOLATED __attribute__((swift_attr("nonisolated")))
#define NS_SWIFT_NONSENDABLE
#define NS_NOESCAPE __attribute__((noescape))
#define NS_RETURNS_RETAINED
#define NS_REQUIRES_SUPER
#define NS_SWIFT_DISABLE_ASYNC __attribute__((swift_async(none)))
#define NS_SWIFT_ASYNC_NAME(x) __attribute__((swift_async_name(#x)))
#define NS_SWIFT_UI_ACTOR __attribute__((swift_attr("@UIActor")))
#define NS_SWIFT_NOTHROW __attribute__((swift_error(none)))
#define NS_FORMAT_FUNCTION(a,b)
#define NS_REQUIRES_NIL_TERMINATION
#define NS_TYPED_EXTENSIBLE_ENUM __attribute__((swift_wrapper(struct)))
#define NS_TYPED_ENUM __attribute__((swift_wrapper(enum)))
#define NS_ENUM(_type, _name) enum __attribute__((enum_extensibility(open))) _name : _type _name; enum __attribute__((enum_extensibility(open))) _name : _type
#define NS_CLOSED_ENUM(_type, _name) enum __attribute__((enum_extensibility(closed))) _name : _type _name; enum __attribute__((enum_extensibility(closed))) _name : _type
#define NS_OPTIONS(_type, _name) enum __attribute__((flag_enum, enum_extensibility(open))) _name : _type _name; enum __attribute__((flag_enum, enum_extensibility(open))) _name : _type
#define NS_ERROR_ENUM(_type, _name, _domain) NS_ENUM(_type, _name)

typedef _Bool BOOL;
// Methods whose trailing NSError** parameter the importer turns into `throws` are written here
// with that parameter removed (BOOL results as void, nullable results as nonnull) and this mark.
#define THROWS __attribute__((swift_attr("@discardableResult")))
// An `id *` in-out parameter (AutoreleasingUnsafeMutablePointer<AnyObject?> in Swift).
typedef struct AutoreleasingObjectPointer *AutoreleasingObjectPointer;
typedef long NSInteger;
typedef unsigned long long uint64_t;
typedef long long int64_t;
typedef unsigned long NSUInteger;
typedef double NSTimeInterval;
typedef struct _NSRange { NSUInteger location; NSUInteger length; } NSRange;
#define YES ((BOOL)1)
#define NO ((BOOL)0)

NS_ASSUME_NONNULL_BEGIN
@protocol NSObject
- (BOOL)isEqual:(nullable id)object;
@end
@interface NSObject <NSObject>
+ (instancetype)new;
+ (instancetype)alloc;
- (instancetype)init;
@end
@class NSString, NSCoder, NSZone, NSURL;
@protocol NSCopying - (id)copyWithZone:(nullable NSZone *)zone; @end
@protocol NSMutableCopying - (id)mutableCopyWithZone:(nullable NSZone *)zone; @end
@protocol NSCoding
- (void)encodeWithCoder:(NSCoder *)coder;
- (nullable instancetype)initWithCoder:(NSCoder *)coder;
@end
@protocol NSSecureCoding <NSCoding> @property (class, readonly) BOOL supportsSecureCoding; @end
@protocol NSFastEnumeration @end
@protocol NSLocking - (void)lock; - (void)unlock; @end
@interface NSString : NSObject <NSCopying, NSSecureCoding> @end
@interface NSMutableString : NSString @end
@interface NSAttributedString : NSObject @end
@interface NSCoder : NSObject @end
@interface NSArray<__covariant ObjectType> : NSObject <NSCopying, NSMutableCopying, NSSecureCoding, NSFastEnumeration> @end
@interface NSMutableArray<ObjectType> : NSArray<ObjectType> @end
@interface NSDictionary<__covariant KeyType, __covariant ObjectType> : NSObject <NSCopying, NSMutableCopying, NSSecureCoding, NSFastEnumeration> @end
@interface NSMutableDictionary<KeyType, ObjectType> : NSDictionary<KeyType, ObjectType> @end
@interface NSSet<__covariant ObjectType> : NSObject <NSCopying, NSMutableCopying, NSSecureCoding, NSFastEnumeration> @end
@interface NSMutableSet<ObjectType> : NSSet<ObjectType> @end
@interface NSOrderedSet<__covariant ObjectType> : NSObject <NSCopying, NSMutableCopying, NSSecureCoding, NSFastEnumeration> @end
@interface NSMutableOrderedSet<ObjectType> : NSOrderedSet<ObjectType> @end
@interface NSIndexSet : NSObject <NSCopying, NSMutableCopying, NSSecureCoding> @end
@interface NSIndexPath : NSObject <NSCopying, NSSecureCoding> @end
@interface NSError : NSObject <NSCopying, NSSecureCoding> @end
@interface NSURL : NSObject <NSSecureCoding, NSCopying> @end
@interface NSUUID : NSObject <NSCopying, NSSecureCoding> @end
@interface NSDate : NSObject <NSCopying, NSSecureCoding> @end
@interface NSData : NSObject <NSCopying, NSMutableCopying, NSSecureCoding> @end
@interface NSValue : NSObject <NSCopying, NSSecureCoding> @end
@interface NSNumber : NSValue @end
@interface NSNull : NSObject <NSCopying, NSSecureCoding> @end
@interface NSPredicate : NSObject <NSSecureCoding, NSCopying> @end
@interface NSExpression : NSObject <NSSecureCoding, NSCopying> @end
@interface NSSortDescriptor : NSObject <NSSecureCoding, NSCopying> @end
@interface NSBundle : NSObject @end
@interface NSUndoManager : NSObject @end
@interface NSProgress : NSObject @end
@interface NSOperation : NSObject @end
@interface NSFileManager : NSObject @end
@interface NSItemProvider : NSObject @end
@interface NSNotificationCenter : NSObject @end
typedef NSString *NSNotificationName NS_TYPED_EXTENSIBLE_ENUM;
typedef NSString *NSErrorDomain;
typedef NSString *NSValueTransformerName NS_TYPED_EXTENSIBLE_ENUM;
typedef NSString *NSAttributedStringKey NS_TYPED_EXTENSIBLE_ENUM;
@interface NSNotification : NSObject <NSCopying, NSCoding> @end
@interface NSValueTransformer : NSObject @end
@interface NSSecureUnarchiveFromDataTransformer : NSValueTransformer @end
// CloudKit and CoreSpotlight types named by CoreData's headers.
@interface CKRecord : NSObject @end
@interface CKRecordID : NSObject @end
@interface CKRecordZone : NSObject @end
@interface CKRecordZoneID : NSObject @end
@interface CKShare : CKRecord @end
@interface CKShareMetadata : NSObject @end
@interface CKShareParticipant : NSObject @end
@interface CKContainer : NSObject @end
@interface CKUserIdentityLookupInfo : NSObject @end
typedef NS_ENUM(NSInteger, CKDatabaseScope) { CKDatabaseScopePublic = 1, CKDatabaseScopePrivate, CKDatabaseScopeShared };
@interface CSSearchableIndex : NSObject @end
@interface CSSearchableItemAttributeSet : NSObject @end
@interface CSSearchableItem : NSObject @end
NS_ASSUME_NONNULL_END
NS_ASSUME_NONNULL_BEGIN
typedef NS_ENUM(NSUInteger, NSKeyValueSetMutationKind) { NSKeyValueUnionSetMutation = 1, NSKeyValueMinusSetMutation = 2, NSKeyValueIntersectSetMutation = 3, NSKeyValueSetSetMutation = 4 };
NS_ASSUME_NONNULL_END
NS_ASSUME_NONNULL_BEGIN
@interface NSOrderedCollectionDifference<ObjectType> : NSObject @end
__attribute__((swift_name("NSDiffableDataSourceSnapshotReference")))
@interface NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType> : NSObject @end
NS_ASSUME_NONNULL_END
NS_ASSUME_NONNULL_BEGIN
typedef NS_ENUM(NSUInteger, NSExpressionType) { NSConstantValueExpressionType = 0 } NS_SWIFT_NAME(NSExpression.ExpressionType);
NS_ASSUME_NONNULL_END
