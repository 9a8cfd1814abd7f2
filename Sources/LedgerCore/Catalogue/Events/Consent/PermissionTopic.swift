/// What a PermissionKit question asks about (`PermissionQuestion.topic`).
///
/// In JSON, an object with exactly one member naming the case, as Swift encodes enums:
/// `{"significantAppUpdate": {"description": "…"}}`,
/// `{"communication": {"personInformation": […], "actions": ["message"]}}`,
/// `{"custom": {"name": "…", "description": "…"}}`.
public enum PermissionTopic: Codable, Sendable, Equatable {
    /// `SignificantAppUpdateTopic(description:)`.
    case significantAppUpdate(description: String)
    /// `CommunicationTopic(personInformation:actions:)`. The people are personal data.
    case communication(personInformation: [PersonInformation], actions: [CommunicationAction]?)
    /// A topic of the app's own (a type of the app conforming to `QuestionTopic`), by name, with the
    /// text the app showed the parent about it when it recorded one. PermissionKit defines no text
    /// member for an app's own topic; `description` is named after `SignificantAppUpdateTopic(description:)`,
    /// the one text PermissionKit shows a parent about a topic (decision 0028).
    case custom(name: String, description: String? = nil)

    /// `CommunicationTopic.PersonInformation`: someone the child wants to communicate with.
    public struct PersonInformation: Codable, Sendable, Equatable {
        /// How to reach the person.
        public var handle: Handle
        /// The name shown to the parent, when the app gave one.
        public var displayName: String?

        /// Creates a person.
        public init(handle: Handle, displayName: String? = nil) {
            self.handle = handle
            self.displayName = displayName
        }
    }

    /// `CommunicationHandle`: a phone number, e-mail address or app-specific handle.
    public struct Handle: Codable, Sendable, Equatable {
        /// The handle itself.
        public var value: String
        /// What kind of handle it is.
        public var kind: Kind

        /// `CommunicationHandle.Kind`.
        public enum Kind: String, CatalogueValue {
            /// A phone number.
            case phoneNumber
            /// An e-mail address.
            case emailAddress
            /// An app-specific handle (a user name).
            case custom
        }

        /// Creates a handle.
        public init(value: String, kind: Kind) {
            self.value = value
            self.kind = kind
        }
    }

    /// `CommunicationTopic.Action`.
    public enum CommunicationAction: String, CatalogueValue {
        /// Audio call.
        case audioCall
        /// Be followed by the person.
        case beFollowed
        /// Call.
        case call
        /// Chat.
        case chat
        /// Communicate in general.
        case communicate
        /// Follow the person.
        case follow
        /// Add the person as a friend.
        case friend
        /// Message.
        case message
        /// Video call.
        case videoCall
    }

    /// The field kind of a topic.
    static let fieldKind = FieldKind.variant([
        VariantCase("significantAppUpdate", "`SignificantAppUpdateTopic(description:)`.", fields: [
            .required("description", .text(maxLength: 1000), "The description shown to the parent."),
        ]),
        VariantCase("communication", "`CommunicationTopic(personInformation:actions:)`.", fields: [
            .required("personInformation", .array(of: .object([
                .required("handle", .object([
                    .required("value", .text(maxLength: 320), "The phone number, e-mail address or user name."),
                    .required("kind", .oneOf(Handle.Kind.self), "The `CommunicationHandle.Kind`."),
                ]), "The `CommunicationHandle`."),
                .optional("displayName", .text(maxLength: 200), "The name shown to the parent."),
            ]), count: 1...20, unique: false),
            "The people the child wants to communicate with: contact handles, personal data.", personal: true),
            .optional("actions", .array(of: .oneOf(CommunicationAction.self), count: 1...9, unique: true),
                      "The communication actions asked for (a set)."),
        ]),
        VariantCase("custom", "A topic of the app's own.", fields: [
            .required("name", .token(.identifier), "The topic's name."),
            .optional("description", .text(maxLength: 1000),
                      "The text the app showed the parent about the topic, as shown (like `SignificantAppUpdateTopic(description:)`); "
                        + "absent when the app did not record it. Free text about one child: personal data.", personal: true),
        ]),
    ])
}
