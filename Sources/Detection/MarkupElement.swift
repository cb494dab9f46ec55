/// One element of a parsed XML document: its name, attributes, direct character data and
/// child elements.
///
/// This is a deliberately small XML reader for OpenCV's FileStorage files: elements,
/// attributes, comments, the `<?xml?>` declaration and a DOCTYPE are understood; entity
/// references are left as written (cascade files only hold numbers and names).
struct MarkupElement {
    var name: String
    var attributes: [String: String] = [:]
    /// Character data directly inside this element (not inside its children).
    var text: String = ""
    var children: [MarkupElement] = []

    /// The first child with the given name.
    func child(_ name: String) -> MarkupElement? {
        children.first { $0.name == name }
    }

    /// The text with surrounding white space removed.
    var trimmedText: Substring {
        let bytes = text.utf8
        guard let first = bytes.firstIndex(where: { !Self.isSpace($0) }),
              let last = bytes.lastIndex(where: { !Self.isSpace($0) })
        else { return "" }
        return text[first...last]
    }

    /// The text split at white space (space, tab, CR, LF; files may have CRLF line ends).
    var words: [Substring] {
        text.unicodeScalars.split(whereSeparator: { $0.isASCII && Self.isSpace(UInt8($0.value)) })
            .map { Substring($0) }
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// A syntax error with the 1-based line it was found on.
    struct SyntaxError: Error {
        let message: String
        let line: Int
    }

    /// The deepest nesting accepted. OpenCV cascades nest 6 levels; a bound keeps the tree's
    /// recursive release (and any walk over it) from overflowing the stack on hostile files.
    static let maximumDepth = 256

    /// Parses a whole document and returns its root element.
    static func parseDocument(_ bytes: [UInt8]) throws -> MarkupElement {
        var parser = Parser(bytes: bytes)
        return try parser.document()
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var stack: [MarkupElement] = []
        var root: MarkupElement?

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        var line: Int {
            bytes[..<min(index, bytes.count)].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        }

        func error(_ message: String) -> SyntaxError {
            SyntaxError(message: message, line: line)
        }

        func starts(with literal: String, at position: Int) -> Bool {
            var i = position
            for byte in literal.utf8 {
                guard i < bytes.count, bytes[i] == byte else { return false }
                i += 1
            }
            return true
        }

        /// Moves past the next occurrence of `terminator`; throws when there is none.
        mutating func skip(past terminator: String, what: String) throws {
            let first = terminator.utf8.first!
            while index < bytes.count {
                if bytes[index] == first, starts(with: terminator, at: index) {
                    index += terminator.utf8.count
                    return
                }
                index += 1
            }
            throw error("unexpected end of file inside \(what) (truncated file?)")
        }

        static func isNameByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"),
                 UInt8(ascii: "."), UInt8(ascii: ":"), 0x80...0xFF:
                return true
            default:
                return false
            }
        }

        mutating func name() throws -> String {
            let start = index
            while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
            guard index > start else {
                throw error(index < bytes.count ? "malformed tag" : "unexpected end of file inside a tag (truncated file?)")
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        mutating func skipSpace() {
            while index < bytes.count, MarkupElement.isSpace(bytes[index]) { index += 1 }
        }

        mutating func document() throws -> MarkupElement {
            skipSpace()
            if index < bytes.count, bytes[index] == 0xEF, starts(with: "\u{FEFF}", at: index) { index += 3 }
            guard index < bytes.count else { throw error("the file is empty") }
            guard bytes[index] == UInt8(ascii: "<") else { throw error("not an XML file") }
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "<") {
                    try markup()
                } else {
                    try characterData()
                }
            }
            if let open = stack.last {
                throw error("unexpected end of file: <\(open.name)> is not closed (truncated file?)")
            }
            guard let root else { throw error("no XML element found") }
            return root
        }

        mutating func characterData() throws {
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
            let chunk = bytes[start..<index]
            if stack.isEmpty {
                if chunk.contains(where: { !MarkupElement.isSpace($0) }) {
                    throw error("text outside the root element")
                }
                return
            }
            stack[stack.count - 1].text += String(decoding: chunk, as: UTF8.self)
        }

        mutating func markup() throws {
            if starts(with: "<?", at: index) {
                try skip(past: "?>", what: "a processing instruction")
            } else if starts(with: "<!--", at: index) {
                try skip(past: "-->", what: "a comment")
            } else if starts(with: "<![CDATA[", at: index) {
                let start = index + 9
                try skip(past: "]]>", what: "a CDATA section")
                guard !stack.isEmpty else { throw error("CDATA outside the root element") }
                stack[stack.count - 1].text += String(decoding: bytes[start..<(index - 3)], as: UTF8.self)
            } else if starts(with: "<!", at: index) {
                try skip(past: ">", what: "a declaration")
            } else if starts(with: "</", at: index) {
                index += 2
                let closing = try name()
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
                    throw error("malformed closing tag </\(closing)")
                }
                index += 1
                guard let open = stack.popLast() else { throw error("unexpected closing tag </\(closing)>") }
                guard open.name == closing else {
                    throw error("closing tag </\(closing)> does not match <\(open.name)>")
                }
                finish(open)
            } else {
                index += 1
                var element = MarkupElement(name: try name())
                while true {
                    skipSpace()
                    guard index < bytes.count else { throw error("unexpected end of file inside <\(element.name)> (truncated file?)") }
                    if bytes[index] == UInt8(ascii: ">") {
                        index += 1
                        guard stack.count < MarkupElement.maximumDepth else {
                            throw error("elements nested deeper than \(MarkupElement.maximumDepth) levels")
                        }
                        stack.append(element)
                        return
                    }
                    if starts(with: "/>", at: index) {
                        index += 2
                        finish(element)
                        return
                    }
                    let key = try name()
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                        throw error("attribute \(key) of <\(element.name)> has no value")
                    }
                    index += 1
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                        throw error("attribute \(key) of <\(element.name)> is not quoted")
                    }
                    let quote = bytes[index]
                    index += 1
                    let start = index
                    while index < bytes.count, bytes[index] != quote { index += 1 }
                    guard index < bytes.count else { throw error("unexpected end of file inside <\(element.name)> (truncated file?)") }
                    element.attributes[key] = String(decoding: bytes[start..<index], as: UTF8.self)
                    index += 1
                }
            }
        }

        mutating func finish(_ element: MarkupElement) {
            if stack.isEmpty {
                if root == nil { root = element }
            } else {
                stack[stack.count - 1].children.append(element)
            }
        }
    }
}
