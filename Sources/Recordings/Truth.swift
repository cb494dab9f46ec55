/// The contents of `truth.json`: what happened in a recording, for tests and `facewatch eval`.
public struct Truth: Codable, Sendable, Equatable {
    /// One event that happened between `start` and `end` (seconds on the frames' clock).
    public struct Event: Codable, Sendable, Equatable {
        /// `blink`, `smile`, `mouth_open`, `wink`, `eyes_closed`, …; `talking` marks speech
        /// (not scored: a person waiting for a smile or open-mouth cue holds it back).
        public var type: String
        public var start: Double
        public var end: Double
        /// For a wink: `left` or `right` (the person's own eye).
        public var eye: String?
        /// Free-form subtype given by the annotator (real recordings: `slow`, `one_frame`,
        /// `staggered`, `squint`, `look_down`, …); not scored.
        public var kind: String?

        public init(type: String, start: Double, end: Double, eye: String? = nil, kind: String? = nil) {
            self.type = type
            self.start = start
            self.end = end
            self.eye = eye
            self.kind = kind
        }
    }

    /// Faces visible for most of the recording (0: none).
    public var faces: Int
    public var events: [Event]
    /// Look-alikes that must not be reported (their `type` says what they look like, e.g.
    /// `squint`, `look_down`): any blink, wink or eye closure reported over one is a false event.
    public var negatives: [Event]?
    /// Stretches where the annotator could not tell whether an event of this `type` happened (a
    /// grin with the lips apart: is the mouth open?): an event of that type reported over one is
    /// neither a true nor a false event, unless it matches an event in `events`.
    public var unsure: [Event]?
    /// Who is in the recording (real recordings), for leave-one-person-out scoring.
    public var person: String?
    /// For a presentation-attack recording: what kind of attack it is (`screen`, `photo-held`,
    /// `photo-turned`, …); nil for a recording of a live person.
    public var attack: String?
    public var notes: String?

    public init(faces: Int, events: [Event], negatives: [Event]? = nil, unsure: [Event]? = nil, person: String? = nil,
                notes: String? = nil) {
        self.faces = faces
        self.events = events
        self.negatives = negatives
        self.unsure = unsure
        self.person = person
        self.notes = notes
    }
}
