import Liveness

/// ISO/IEC 30107-3 figures of the liveness check per challenge: APCER per attack kind (attack
/// presentations accepted) and BPCER (bona fide presentations, the responding people, rejected),
/// with the reasons for each rejection.
public struct PresentationScore: Sendable {
    /// Accepted and total checks of one attack kind.
    public struct Tally: Sendable, Equatable {
        public var accepted = 0
        public var total = 0

        public init(accepted: Int = 0, total: Int = 0) {
            self.accepted = accepted
            self.total = total
        }

        public var rate: Double { total == 0 ? 0 : Double(accepted) / Double(total) }
    }

    /// Per challenge name, per attack kind.
    public private(set) var attacks: [String: [String: Tally]] = [:]
    /// Per challenge name: genuine checks (`accepted` = passed).
    public private(set) var genuine: [String: Tally] = [:]
    /// Per challenge name: why genuine checks failed.
    public private(set) var genuineFailures: [String: [String: Int]] = [:]
    /// Per challenge name and attack kind: the recordings and seeds that were accepted.
    public private(set) var acceptedAttacks: [String: [String]] = [:]

    public init() {}

    public mutating func addAttack(challenge: String, kind: String, recording: String, seed: UInt64, verdict: CheckVerdict) {
        attacks[challenge, default: [:]][kind, default: Tally()].total += 1
        if verdict.passed {
            attacks[challenge, default: [:]][kind, default: Tally()].accepted += 1
            acceptedAttacks[challenge, default: []].append("\(recording) seed \(seed) (\(kind))")
        }
    }

    public mutating func addGenuine(challenge: String, verdict: CheckVerdict) {
        genuine[challenge, default: Tally()].total += 1
        if verdict.passed {
            genuine[challenge, default: Tally()].accepted += 1
        } else {
            let step = verdict.steps.last.map { " in \($0.step)" } ?? ""
            genuineFailures[challenge, default: [:]]["\(verdict.reason?.rawValue ?? "?")\(step)", default: 0] += 1
        }
    }

    /// APCER over every attack kind of `challenge`.
    public func apcer(_ challenge: String) -> Tally {
        (attacks[challenge] ?? [:]).values.reduce(into: Tally()) {
            $0.accepted += $1.accepted
            $0.total += $1.total
        }
    }

    /// BPCER of `challenge`: the share of genuine checks rejected.
    public func bpcer(_ challenge: String) -> Tally {
        let tally = genuine[challenge] ?? Tally()
        return Tally(accepted: tally.total - tally.accepted, total: tally.total)
    }

    /// The attack kinds seen, sorted.
    public var kinds: [String] {
        Set(attacks.values.flatMap(\.keys)).sorted()
    }

    /// The table: a row per challenge, APCER per attack kind, then over all attacks, then BPCER.
    public func table(challenges: [String]) -> String {
        func cell(_ tally: Tally?) -> String {
            guard let tally, tally.total > 0 else { return "-" }
            return "\(tally.accepted)/\(tally.total) \(percent(tally.rate))"
        }
        let header = ["challenge"] + kinds.map { "APCER \($0)" } + ["APCER all", "BPCER"]
        var rows = [header]
        for challenge in challenges {
            rows.append([challenge] + kinds.map { cell(attacks[challenge]?[$0]) } + [cell(apcer(challenge)), cell(bpcer(challenge))])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines = rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
        }
        lines.insert(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "), at: 1)
        for challenge in challenges {
            if let failures = genuineFailures[challenge], !failures.isEmpty {
                let text = failures.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
                lines.append("genuine rejected, \(challenge): \(text)")
            }
            if let accepted = acceptedAttacks[challenge], !accepted.isEmpty {
                lines.append("attacks accepted, \(challenge): \(accepted.prefix(10).joined(separator: "; "))"
                             + (accepted.count > 10 ? "; … (\(accepted.count) in all)" : ""))
            }
        }
        return lines.joined(separator: "\n")
    }

    private func percent(_ rate: Double) -> String {
        let tenths = (rate * 1000).rounded() / 10
        return "\(tenths)%"
    }
}
