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
        // Foundation's XMLParser traps on a name that is not valid UTF-8 (found by fuzzing,
        // Tests/Fuzz/crashes): refuse such a file first. Xcode writes model files in UTF-8.
        if String(data: data, encoding: .utf8) == nil {
            throw invalidUTF8(data)
        }
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

    /// The failure for a document that is not valid UTF-8, at its first bad byte.
    private static func invalidUTF8(_ data: Data) -> ParseFailure {
        let bytes = [UInt8](data)
        var line = 1, column = 1, index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length = byte < 0x80 ? 1 : byte >> 5 == 0b110 ? 2 : byte >> 4 == 0b1110 ? 3 : byte >> 3 == 0b11110 ? 4 : 0
            let sequence = length > 0 && index + length <= bytes.count ? Array(bytes[index..<(index + length)]) : []
            guard !sequence.isEmpty, String(bytes: sequence, encoding: .utf8) != nil else { break }
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
            index += length
        }
        return ParseFailure(line: line, column: column,
                            message: "the file is not valid UTF-8 (byte 0x\(String(bytes[min(index, bytes.count - 1)], radix: 16)) at offset \(index))")
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
