import Events
import FaceCore
import Foundation
import Liveness
import Pipeline

/// The liveness checks started over HTTP on one camera. At most one runs at a time (a second
/// start is a `Conflict`, HTTP 409); the pipeline feeds every processed frame to the running one.
/// Finished checks stay readable (the last `keep` of them).
///
/// `@unchecked Sendable`: every stored `var` (the running check included) is read and written
/// only with `lock` held.
public final class CheckRegistry: @unchecked Sendable {
    /// Another check is running on this camera.
    public struct Conflict: Error, CustomStringConvertible, Equatable {
        public let runningID: String
        public var description: String { "a check is already running on this camera (\(runningID))" }
    }

    /// A check as `GET /checks/{id}` shows it: its prompts and, at the end, its verdict, as the
    /// same JSON objects `facewatch check` prints.
    public struct Snapshot: Sendable, Equatable {
        public let id: String
        public let challenge: String
        public var outputs: [String] = []
        /// nil while running.
        public var passed: Bool?

        public var state: String {
            switch passed {
            case nil: return "running"
            case true?: return "passed"
            case false?: return "failed"
            }
        }

        /// `{"id":…,"challenge":…,"state":…,"outputs":[…]}`.
        public var json: String {
            var out: [UInt8] = []
            out += Array(#"{"id":"#.utf8); JSONString.append(id, to: &out)
            out += Array(#","challenge":"#.utf8); JSONString.append(challenge, to: &out)
            out += Array(#","state":"#.utf8); JSONString.append(state, to: &out)
            out += Array(#","outputs":["#.utf8)
            out += Array(outputs.joined(separator: ",").utf8)
            out += Array("]}".utf8)
            return String(decoding: out, as: UTF8.self)
        }
    }

    public let keep: Int
    private let lock = NSLock()
    private var running: (id: String, check: LivenessCheck)?
    private var snapshots: [String: Snapshot] = [:]
    private var order: [String] = []
    private let concluded: (Bool) -> Void

    /// `concluded` hears each verdict (metrics).
    public init(keep: Int = 32, concluded: @escaping (Bool) -> Void = { _ in }) {
        self.keep = keep
        self.concluded = concluded
    }

    /// Starts a check, or throws `Conflict` while another runs.
    public func start(_ challenge: Challenge, settings: CheckSettings, seed: UInt64 = UInt64.random(in: 0...UInt64.max),
                      id: String = UUID().uuidString.lowercased()) throws -> Snapshot {
        lock.lock()
        defer { lock.unlock() }
        if let running { throw Conflict(runningID: running.id) }
        running = (id, LivenessCheck(challenge: challenge, settings: settings, seed: seed))
        let snapshot = Snapshot(id: id, challenge: challenge.description)
        snapshots[id] = snapshot
        order.append(id)
        if order.count > keep { snapshots[order.removeFirst()] = nil }
        return snapshot
    }

    /// The check `id` as it stands.
    public func snapshot(_ id: String) -> Snapshot? {
        lock.lock()
        defer { lock.unlock() }
        return snapshots[id]
    }

    /// Feeds one processed frame to the running check (the processing queue calls this).
    public func observe(frame: Int, t: Double, events: [Event], faces: [FaceObservation], facesInView: Int) {
        withRunning { check, emit in
            check.observe(frame: frame, t: t, events: events, faces: faces, facesInView: facesInView, emit: emit)
        }
    }

    /// The stream ended: a running check fails (`stream_ended`).
    public func finish() {
        withRunning { check, emit in check.finish(emit: emit) }
    }

    private func withRunning(_ body: (LivenessCheck, (CheckOutput) -> Void) -> Void) {
        lock.lock()
        guard let current = running else {
            lock.unlock()
            return
        }
        let (id, check) = current
        body(check) { output in snapshots[id]?.outputs.append(String(output.jsonLine.dropLast())) }
        let verdict = check.verdict
        if let verdict {
            snapshots[id]?.passed = verdict.passed
            running = nil
        }
        lock.unlock()
        if let verdict { concluded(verdict.passed) }
    }
}
