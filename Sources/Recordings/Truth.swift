/// The contents of `truth.json`: what happened in a recording, for tests and `facewatch eval`.
public struct Truth: Codable, Sendable, Equatable {
    /// One event that happened between `start` and `end` (seconds on the frames' clock).
    public struct Event: Codable, Sendable, Equatable {
        /// `blink`, `smile`, `mouth_open`, `wink`, `eyes_closed`, …
        public var type: String
        public var start: Double
        public var end: Double
        /// For a wink: `left` or `right` (the person's own eye).
        public var eye: String?

        public init(type: String, start: Double, end: Double, eye: String? = nil) {
            self.type = type
            self.start = start
            self.end = end
            self.eye = eye
        }
    }

    /// Faces visible for most of the recording (0: none).
    public var faces: Int
    public var events: [Event]
    public var notes: String?

    public init(faces: Int, events: [Event], notes: String? = nil) {
        self.faces = faces
        self.events = events
        self.notes = notes
    }
}
