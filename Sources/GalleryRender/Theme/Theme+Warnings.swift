import GalleryModel

extension Theme {
    /// Tags that render as nothing without a word: a partial or parent template that does not
    /// exist, or a name no page model has. Each warning names the template, line and column.
    ///
    /// swift-mustache renders a missing partial or an unknown name as empty text, so a misspelt
    /// `{{titel}}` or `{{>footr}}` in a site's own templates went unnoticed; `build --strict` fails
    /// on these warnings.
    package func warnings() -> [String] {
        var warnings: [String] = []
        for (name, text) in templates.sorted(by: { $0.key < $1.key }) {
            let scan = TemplateTags(text)
            for tag in scan.tags {
                let place = "template \(name).mustache, line \(tag.line), column \(tag.column)"
                let written = "{{\(tag.sigil.map(String.init) ?? "")\(tag.name)}}"
                switch tag.sigil {
                case ">", "<":
                    guard templates[tag.name] == nil else { continue }
                    let hint =
                        Spelling.closest(to: tag.name, among: templates.keys).map {
                            "did you mean {{\(tag.sigil!)\($0)}}? "
                        } ?? ""
                    warnings.append("\(place): \(written) names no template; \(hint)it renders as nothing")
                case nil, "&", "{", "#", "^":
                    guard let unknown = TemplateFields.unknownPart(of: tag.name) else { continue }
                    let hint =
                        Spelling.closest(to: unknown, among: TemplateFields.names).map { "did you mean \"\($0)\"? " }
                        ?? ""
                    warnings.append(
                        "\(place): no page has a field \"\(unknown)\" (in \(written)); \(hint)it renders as nothing")
                default:
                    continue
                }
            }
        }
        return warnings
    }
}
