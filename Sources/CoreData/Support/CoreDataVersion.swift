// The Core Data version numbers Apple declares (CoreDataDefines.h), so code that checks
// `NSCoreDataVersionNumber >= NSCoreDataVersionNumber_iPhoneOS_9_0` before using a feature
// builds and takes the modern path.

/// The version of Core Data this process runs.
///
/// - Note: Apple parity: Apple's value is the framework build of the running OS. Ours is
///   the build number of the Apple release whose behaviour this package follows (iOS 18 /
///   macOS 15, Core Data 1417), so it is above every per-release number below, and code
///   comparing against them takes the branch for current systems. It is a `let`: Apple's
///   is a mutable global that no code is meant to set.
public let NSCoreDataVersionNumber: Double = 1417.0

/// Core Data in macOS 10.4.
public let NSCoreDataVersionNumber10_4: Double = 46.0
/// Core Data in macOS 10.4.3.
public let NSCoreDataVersionNumber10_4_3: Double = 77.0
/// Core Data in macOS 10.5.
public let NSCoreDataVersionNumber10_5: Double = 185.0
/// Core Data in macOS 10.5.3.
public let NSCoreDataVersionNumber10_5_3: Double = 186.0
/// Core Data in macOS 10.6.
public let NSCoreDataVersionNumber10_6: Double = 246.0
/// Core Data in macOS 10.6.2.
public let NSCoreDataVersionNumber10_6_2: Double = 250.0
/// Core Data in macOS 10.6.3.
public let NSCoreDataVersionNumber10_6_3: Double = 251.0
/// Core Data in macOS 10.7.
public let NSCoreDataVersionNumber10_7: Double = 358.4
/// Core Data in macOS 10.7.2.
public let NSCoreDataVersionNumber10_7_2: Double = 358.12
/// Core Data in macOS 10.7.3.
public let NSCoreDataVersionNumber10_7_3: Double = 358.13
/// Core Data in macOS 10.7.4.
public let NSCoreDataVersionNumber10_7_4: Double = 358.14
/// Core Data in macOS 10.8.
public let NSCoreDataVersionNumber10_8: Double = 407.5
/// Core Data in macOS 10.8.2.
public let NSCoreDataVersionNumber10_8_2: Double = 407.7
/// Core Data in macOS 10.9.
public let NSCoreDataVersionNumber10_9: Double = 481.0
/// Core Data in macOS 10.9.2.
public let NSCoreDataVersionNumber10_9_2: Double = 481.1
/// Core Data in macOS 10.9.3.
public let NSCoreDataVersionNumber10_9_3: Double = 481.3
/// Core Data in macOS 10.10.
public let NSCoreDataVersionNumber10_10: Double = 526.0
/// Core Data in macOS 10.10.2.
public let NSCoreDataVersionNumber10_10_2: Double = 526.1
/// Core Data in macOS 10.10.3.
public let NSCoreDataVersionNumber10_10_3: Double = 526.2
/// Core Data in macOS 10.11.
public let NSCoreDataVersionNumber10_11: Double = 640.0
/// Core Data in macOS 10.11.3.
public let NSCoreDataVersionNumber10_11_3: Double = 641.3

/// Core Data in iPhone OS 3.0.
public let NSCoreDataVersionNumber_iPhoneOS_3_0: Double = 241.0
/// Core Data in iPhone OS 3.1.
public let NSCoreDataVersionNumber_iPhoneOS_3_1: Double = 248.0
/// Core Data in iPhone OS 3.2.
public let NSCoreDataVersionNumber_iPhoneOS_3_2: Double = 310.2
/// Core Data in iOS 4.0.
public let NSCoreDataVersionNumber_iPhoneOS_4_0: Double = 320.5
/// Core Data in iOS 4.1.
public let NSCoreDataVersionNumber_iPhoneOS_4_1: Double = 320.11
/// Core Data in iOS 4.2.
public let NSCoreDataVersionNumber_iPhoneOS_4_2: Double = 320.15
/// Core Data in iOS 4.3.
public let NSCoreDataVersionNumber_iPhoneOS_4_3: Double = 320.17
/// Core Data in iOS 5.0.
public let NSCoreDataVersionNumber_iPhoneOS_5_0: Double = 386.1
/// Core Data in iOS 5.1.
public let NSCoreDataVersionNumber_iPhoneOS_5_1: Double = 386.5
/// Core Data in iOS 6.0.
public let NSCoreDataVersionNumber_iPhoneOS_6_0: Double = 419.0
/// Core Data in iOS 6.1.
public let NSCoreDataVersionNumber_iPhoneOS_6_1: Double = 419.1
/// Core Data in iOS 7.0.
public let NSCoreDataVersionNumber_iPhoneOS_7_0: Double = 479.1
/// Core Data in iOS 7.1.
public let NSCoreDataVersionNumber_iPhoneOS_7_1: Double = 479.3
/// Core Data in iOS 8.0.
public let NSCoreDataVersionNumber_iPhoneOS_8_0: Double = 519.0
/// Core Data in iOS 8.3.
public let NSCoreDataVersionNumber_iPhoneOS_8_3: Double = 519.15
/// Core Data in iOS 9.0.
public let NSCoreDataVersionNumber_iPhoneOS_9_0: Double = 640.0
/// Core Data in iOS 9.2.
public let NSCoreDataVersionNumber_iPhoneOS_9_2: Double = 641.4
/// Core Data in iOS 9.3.
public let NSCoreDataVersionNumber_iPhoneOS_9_3: Double = 641.6
