import MockStackCore

/// Who a subscription belongs to, as ServerEventsFeature names a subscriber
/// (docs/servicestack-server-events.md#subscribers): the signed-in user, or an anonymous one
/// numbered by the server-wide count of connections.
struct SubscriberIdentity: Sendable, Equatable {
    var userId: String
    var displayName: String
    var isAuthenticated: Bool
    var profileUrl: String

    /// The anonymous subscriber of the `number`th connection: `-N`, `userN`.
    static func anonymous(number: Int) -> SubscriberIdentity {
        SubscriberIdentity(
            userId: "-\(number)", displayName: "user\(number)", isAuthenticated: false,
            profileUrl: defaultProfileUrl)
    }

    /// A signed-in subscriber: its user name, unless that is missing, an email or a number,
    /// then its display name with every character but letters, digits and `_` as `_`; failing
    /// both, the anonymous name of its connection.
    static func authenticated(_ session: AuthSession, number: Int) -> SubscriberIdentity {
        let name: String
        if let userName = session.userName, !userName.isEmpty, !userName.contains("@"), !isNumeric(userName) {
            name = userName
        } else if let displayName = session.displayName, !displayName.isEmpty {
            name = String(
                String.UnicodeScalarView(
                    displayName.unicodeScalars.map { scalar in
                        scalar.isASCII
                            && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
                            ? scalar : "_"
                    }))
        } else {
            name = "user\(number)"
        }
        return SubscriberIdentity(
            userId: session.userAuthId, displayName: name, isAuthenticated: true, profileUrl: defaultProfileUrl)
    }

    private static func isNumeric(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The avatar ServiceStack gives a user without a profile picture (`JwtClaimTypes.DefaultProfileUrl`).
    static let defaultProfileUrl =
        "data:image/svg+xml,%3Csvg width='100' height='100' viewBox='0 0 100 100' xmlns='http://www.w3.org/20"
        + "00/svg'%3E%3Cstyle%3E .path%7B%7D %3C/style%3E%3Cg id='male-svg'%3E%3Cpath fill='%23556080' d='M1 92"
        + ".84V84.14C1 84.14 2.38 78.81 8.81 77.16C8.81 77.16 19.16 73.37 27.26 69.85C31.46 68.02 32.36 66.93 3"
        + "6.59 65.06C36.59 65.06 37.03 62.9 36.87 61.6H40.18C40.18 61.6 40.93 62.05 40.18 56.94C40.18 56.94 35"
        + ".63 55.78 35.45 47.66C35.45 47.66 32.41 48.68 32.22 43.76C32.1 40.42 29.52 37.52 33.23 35.12L31.35 3"
        + "0.02C31.35 30.02 28.08 9.51 38.95 12.54C34.36 7.06 64.93 1.59 66.91 18.96C66.91 18.96 68.33 28.35 66"
        + ".91 34.77C66.91 34.77 71.38 34.25 68.39 42.84C68.39 42.84 66.75 49.01 64.23 47.62C64.23 47.62 64.65 "
        + "55.43 60.68 56.76C60.68 56.76 60.96 60.92 60.96 61.2L64.74 61.76C64.74 61.76 64.17 65.16 64.84 65.54"
        + "C64.84 65.54 69.32 68.61 74.66 69.98C84.96 72.62 97.96 77.16 97.96 81.13C97.96 81.13 99 86.42 99 92."
        + "85L1 92.84Z'/%3E%3C/g%3E%3C/svg%3E"
}
