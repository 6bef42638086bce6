/// The one rule for an environment variable's name, wherever a setting names one (`${NAME}` in the
/// config, an album's `passwordEnv`): letters, digits and `_`, not starting with a digit.
package enum EnvironmentName {
    package static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
            && !(name.first?.isNumber ?? true)
    }
}
