/// The values a template shows, declared once as a model's stored properties: the template's
/// names are the properties' names, so a misspelt one is a compile error here (and the template's
/// spelling is checked by the pages' tests). A nil optional is no name at all: Mustache takes an
/// empty string for true, so a value that may be absent is optional, never empty.
///
/// The renderer's context is made from the model in one place (`templateContext`): the model is
/// encoded (`JSONValueEncoder`, compiled conformances, no reflection) straight into the
/// dictionaries the Mustache library looks names up in.
protocol TemplateModel: Encodable {}

extension TemplateModel {
    var templateContext: [String: Any] {
        do {
            return try JSONValueEncoder().templateValue(self) as? [String: Any] ?? [:]
        } catch {
            preconditionFailure("a page model does not encode: \(error)")
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
