import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One element of a model file's XML: its name, attributes, child elements and the line
/// it starts on. Text content is not needed by model files and is dropped.
struct ModelXMLElement {
    let name: String
    let attributes: [String: String]
    var children: [ModelXMLElement]
    let line: Int

    subscript(attribute: String) -> String? { attributes[attribute] }

    /// Model files write flags only when true, as `YES`.
    func flag(_ attribute: String) -> Bool { attributes[attribute] == "YES" }

    func children(named name: String) -> [ModelXMLElement] { children.filter { $0.name == name } }
    func child(named name: String) -> ModelXMLElement? { children.first { $0.name == name } }
}

/// Parses a whole XML document into a ``ModelXMLElement`` tree with Foundation's
/// `XMLParser`.
enum ModelXMLTree {
    struct ParseFailure: Error {
        let line: Int
        let column: Int
        let message: String
    }

    static func parse(_ data: Data) throws(ParseFailure) -> ModelXMLElement {
        let parser = XMLParser(data: data)
        let builder = Builder()
        parser.delegate = builder
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let ok = parser.parse()
        guard ok, builder.failure == nil, let root = builder.root else {
            let error = parser.parserError.map { "\($0.localizedDescription)" } ?? "not well-formed"
            throw builder.failure ?? ParseFailure(
                line: parser.lineNumber, column: parser.columnNumber,
                message: builder.root == nil && ok ? "the document has no root element" : error)
        }
        return root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [ModelXMLElement] = []
        var root: ModelXMLElement?
        var failure: ParseFailure?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            stack.append(ModelXMLElement(
                name: elementName, attributes: attributeDict, children: [], line: parser.lineNumber))
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?
        ) {
            guard let element = stack.popLast() else { return }
            if stack.isEmpty {
                root = element
            } else {
                stack[stack.count - 1].children.append(element)
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if failure == nil {
                failure = ParseFailure(
                    line: parser.lineNumber, column: parser.columnNumber,
                    message: "\((parseError as NSError).localizedDescription)")
            }
        }
    }
}
