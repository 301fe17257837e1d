extension String {
    /// How names and paths written by programs are matched (a DTO property, a JSON member, a
    /// route): the same length in UTF-8, then equal as strings. The length, stored in a string,
    /// rules out most pairs before `==` runs its comparison; and unlike `==` alone, two spellings
    /// of one accented text whose UTF-8 lengths differ are different names, as their bytes are.
    @inlinable
    public func hasSameUTF8(as other: String) -> Bool {
        utf8.count == other.utf8.count && self == other
    }
}
