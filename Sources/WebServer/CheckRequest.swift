import Foundation
import Liveness

/// The body of `POST /checks`: `{"challenge": "blink:2,smile", "seed": 7, "step_timeout_s": 5}`,
/// every field optional, as the options of `facewatch check` (no challenge: drawn at random from
/// the seed; no seed: a random one).
public struct CheckRequest: Sendable, Equatable {
    public var challenge: Challenge
    public var settings: CheckSettings
    /// Draws the challenge (when none is given) and the cue times.
    public var seed: UInt64

    /// A body that is not such an object.
    public struct Invalid: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    public init(json data: Data) throws {
        let object: [String: Any]
        if data.isEmpty {
            object = [:]
        } else {
            guard let parsed = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw Invalid(description: "the body must be a JSON object such as {\"challenge\":\"blink:2,smile\"}")
            }
            object = parsed
        }
        if let unknown = object.keys.first(where: { !["challenge", "seed", "step_timeout_s"].contains($0) }) {
            throw Invalid(description: "unknown field \"\(unknown)\"; fields are challenge, seed, step_timeout_s")
        }
        settings = CheckSettings()
        if let timeout = object["step_timeout_s"] {
            guard let value = (timeout as? NSNumber)?.doubleValue, value > 0, value <= 600 else {
                throw Invalid(description: "step_timeout_s must be a number of seconds in (0, 600]")
            }
            settings.stepTimeout = value
        }
        seed = UInt64.random(in: 0...UInt64.max)
        if let given = object["seed"] {
            guard let number = given as? NSNumber, let value = UInt64(exactly: number.doubleValue) else {
                throw Invalid(description: "seed must be a non-negative integer")
            }
            seed = value
        }
        if let text = object["challenge"] {
            guard let text = text as? String else { throw Invalid(description: "challenge must be a string such as \"blink:2,smile\"") }
            do {
                challenge = try Challenge(parsing: text)
            } catch {
                throw Invalid(description: "\(error)")
            }
        } else {
            challenge = Challenge.random(seed: seed)
        }
    }
}
