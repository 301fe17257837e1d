/// The mockstack release this build reports (`mockstack --version`, the ready line).
public enum MockStackVersion {
    public static let current = "0.1.0"
}
