import MockStackCore

/// The `Set-Cookie` values ServiceStack writes on ASP.NET Core — `name=value; expires=…;
/// path=/; samesite=lax; httponly`, lower-case attributes in that order (`secure` only over
/// https, which mockstack does not serve) — with the path scoped to the app's mount (`/test`,
/// or a session's `/__session/{id}/test`; `/` on an exposed port), so that a sign-in on one
/// emulated host does not ride along to the others as it would with the real hosts' `/`.
enum SetCookie {
    /// A cookie `expires` at that moment, or lasts the browser session when nil.
    static func value(_ name: String, _ value: String, expires: DateTimeValue?, for request: HTTPRequest) -> String {
        var text = "\(name)=\(value)"
        if let expires { text += "; expires=" + httpDate(expires) }
        return text + "; path=\(path(for: request)); samesite=lax; httponly"
    }

    /// The cookie's path: where the app is mounted for this request.
    static func path(for request: HTTPRequest) -> String {
        request.mountPath.isEmpty ? "/" : request.mountPath
    }

    /// `Thu, 10 Dec 2026 00:06:00 GMT` (RFC 9110's IMF-fixdate).
    static func httpDate(_ date: DateTimeValue) -> String {
        let days = date.ticks.floorDivided(by: CivilTime.ticksPerDay)
        let time = CivilTime(ticksSinceEpoch: date.ticks)
        // 1970-01-01 was a Thursday.
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][Int(days - days.floorDivided(by: 7) * 7)]
        let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][time.month - 1]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        return
            """
            \(weekday), \(two(time.day)) \(month) \(time.year) \
            \(two(time.hour)):\(two(time.minute)):\(two(time.second)) GMT
            """
    }
}
