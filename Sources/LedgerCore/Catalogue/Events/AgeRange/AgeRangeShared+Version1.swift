extension AgeRangeShared {
    /// Schema version 1 of `AgeRangeShared`, written by apps built against iOS 26.0 to 26.4.
    ///
    /// It recorded the `ParentalControls` option set as `parentalControls`, an object of flags
    /// (`{"communicationLimits": true, "significantAppChangeApprovalRequired": false}`), and
    /// knew no `confirmed` declaration: iOS 26.5 added it and deprecated the six `…Checked`
    /// values, which version 1 lists as current.
    ///
    /// Upcast to version 2: `parentalControls` becomes `activeParentalControls`, the names of the
    /// flags that are `true` in ``ParentalControl``'s order (all `false` gives `[]`; an absent or
    /// `null` object stays absent). Bounds and declaration are kept as they are.
    public static let version1 = SchemaVersion(
        version: 1,
        fields: [
            lowerBoundField,
            upperBoundField,
            .optional("ageRangeDeclaration",
                      .oneOf(AgeRangeDeclaration.allCases.filter { $0 != .confirmed }.map(\.rawValue)),
                      "How the range was set (no `confirmed` in version 1)."),
            .optional("parentalControls", .object(ParentalControl.allCases.map {
                FieldSchema.optional($0.rawValue, .boolean, "Whether `\($0.rawValue)` is on.")
            }), "The parental controls, as an object of flags."),
        ],
        rules: boundRules,
        changes: "Version 2 renamed `parentalControls` (an object of flags) to `activeParentalControls` (the list of "
            + "controls in force) and added the `confirmed` declaration. Upcast: `activeParentalControls` lists the flags that "
            + "are true, in the order communicationLimits, significantAppChangeApprovalRequired (all false gives []); every "
            + "other field is kept.",
        upcast: upcastVersion1
    )

    /// Version 1 -> version 2 (see ``version1``).
    @Sendable static func upcastVersion1(_ v1: [String: JSONValue]) -> [String: JSONValue] {
        var v2 = v1
        if let controls = v2.removeValue(forKey: "parentalControls"), case .object(let flags) = controls {
            v2["activeParentalControls"] = .array(ParentalControl.allCases
                .filter { JSONValue.object(flags)[$0.rawValue] == .bool(true) }
                .map { .string($0.rawValue) })
        }
        return v2
    }
}
