/// The values a template shows, declared once as a model's stored properties: the template's
/// names are the properties' names, so a misspelt one is a compile error here (and the template's
/// spelling is checked by the pages' tests). A nil optional is no name at all: Mustache takes an
/// empty string for true, so a value that may be absent is optional, never empty.
///
/// The renderer's context is made from the model in one place (`templateContext`): the model is
/// encoded (`JSONValueEncoder`, compiled conformances, no reflection) and its objects become the
/// dictionaries the Mustache library looks names up in.
protocol TemplateModel: Encodable {}

extension TemplateModel {
    var templateContext: [String: Any] {
        guard case .object(let members) = JSONReport.encoded(self) else { return [:] }
        return TemplateContext.dictionary(members)
    }
}

enum TemplateContext {
    static func dictionary(_ members: [(String, JSONValue)]) -> [String: Any] {
        var dictionary: [String: Any] = Dictionary(minimumCapacity: members.count)
        for (key, value) in members {
            if let value = self.value(value) { dictionary[key] = value }
        }
        return dictionary
    }

    /// nil for `null`: the name is left out.
    static func value(_ value: JSONValue) -> Any? {
        switch value {
        case .string(let text): text
        case .int(let number): number
        case .bool(let flag): flag
        case .number(let number): number
        case .null: nil
        case .array(let items): items.compactMap(self.value)
        case .object(let members): dictionary(members)
        }
    }
}

/// A page's model and the path back to the site's root, which every page's template may use
/// (`{{root}}style.css`): encoded as one object, `root` beside the model's own names.
struct PageBody<Model: TemplateModel>: TemplateModel {
    let model: Model
    let root: String

    private enum CodingKeys: String, CodingKey { case root }

    func encode(to encoder: any Encoder) throws {
        try model.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(root, forKey: .root)
    }
}
