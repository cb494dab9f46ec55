/// Reads one JSON object of a configuration file strictly: every key must be consumed by the
/// caller (`finish()` rejects the rest by name), and each value must have the asked-for type and range.
struct JSONObjectReader {
    let path: String
    let prefix: String
    private let object: [String: JSONValue]
    private var used: Set<String> = []

    init(_ value: JSONValue, path: String, prefix: String) throws {
        guard case .object(let object) = value else {
            throw ConfigError(path: path, key: prefix, problem: "expected a JSON object")
        }
        self.object = object
        self.path = path
        self.prefix = prefix
    }

    private func name(_ key: String) -> String { prefix.isEmpty ? key : "\(prefix).\(key)" }

    private func error(_ key: String, _ problem: String) -> ConfigError {
        ConfigError(path: path, key: name(key), problem: problem)
    }

    private mutating func raw(_ key: String) -> JSONValue? {
        used.insert(key)
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    mutating func string(_ key: String, default value: String) throws -> String {
        guard let found = raw(key) else { return value }
        guard case .string(let text) = found else { throw error(key, "expected a string") }
        return text
    }

    mutating func optionalString(_ key: String) throws -> String? {
        guard let found = raw(key) else { return nil }
        guard case .string(let text) = found else { throw error(key, "expected a string or null") }
        return text
    }

    mutating func choice(_ key: String, default value: String, from allowed: [String]) throws -> String {
        let text = try string(key, default: value)
        guard allowed.contains(text) else {
            throw error(key, "\"\(text)\" is not one of \(allowed.joined(separator: ", "))")
        }
        return text
    }

    mutating func bool(_ key: String, default value: Bool) throws -> Bool {
        guard let found = raw(key) else { return value }
        guard case .bool(let flag) = found else { throw error(key, "expected true or false") }
        return flag
    }

    mutating func double(_ key: String, default value: Double, in range: ClosedRange<Double>) throws -> Double {
        guard let found = raw(key) else { return value }
        guard case .number(let result) = found else { throw error(key, "expected a number") }
        guard result.isFinite, range.contains(result) else {
            throw error(key, "\(result) is outside \(range.lowerBound)...\(range.upperBound)")
        }
        return result
    }

    mutating func int(_ key: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
        let result = try double(key, default: Double(value), in: Double(range.lowerBound)...Double(range.upperBound))
        guard result == result.rounded() else { throw error(key, "expected a whole number, got \(result)") }
        return Int(result)
    }

    mutating func stringList(_ key: String, default value: [String]) throws -> [String] {
        guard let found = raw(key) else { return value }
        guard case .array(let list) = found else { throw error(key, "expected a list of strings") }
        return try list.map {
            guard case .string(let text) = $0 else { throw error(key, "expected a list of strings") }
            return text
        }
    }

    mutating func object(_ key: String) throws -> JSONObjectReader {
        try JSONObjectReader(raw(key) ?? .object([:]), path: path, prefix: name(key))
    }

    /// Rejects any key that no reader call asked for.
    func finish() throws {
        if let unknown = object.keys.filter({ !used.contains($0) }).sorted().first {
            throw error(unknown, "unknown setting")
        }
    }
}
