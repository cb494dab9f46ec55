import FaceCore

/// The expression state of one tracked face: measures each frame's landmarks and runs the blink,
/// smile and mouth-open state machines on them.
///
/// Create one per face track, call `update` for every frame the face is found in and `lost` for
/// every frame it is not (or once when the track ends). A frame's work allocates nothing.
///
/// ```swift
/// var tracker = ExpressionTracker()
/// let measures = try tracker.update(shape, frameWidth: 640, frameHeight: 480, t: t) { event in
///     print(event)
/// }
/// ```
public struct ExpressionTracker: Sendable {
    public let settings: ExpressionSettings
    private let poseEstimator: HeadPoseEstimator
    public private(set) var blink: BlinkDetector
    /// The learned decision that adds the blinks `blink` misses (nil when `BlinkSettings.learned` is off).
    public private(set) var learnedBlinks: LearnedBlinks?
    public private(set) var smile: StateDetector
    public private(set) var mouthOpen: StateDetector

    public init(settings: ExpressionSettings = ExpressionSettings(), poseEstimator: HeadPoseEstimator = HeadPoseEstimator()) {
        self.settings = settings
        self.poseEstimator = poseEstimator
        blink = BlinkDetector(settings: settings.blink)
        learnedBlinks = settings.blink.learned ? LearnedBlinks(maxTurn: settings.blink.maxYawChange, capacity: settings.blink.sampleCapacity) : nil
        smile = StateDetector(settings: settings.smile)
        mouthOpen = StateDetector(settings: settings.mouthOpen)
    }

    /// Measures the face of one frame and advances the state machines.
    /// - Returns: the frame's measures (for `nose` and `frame` events).
    /// - Throws: `ExpressionError` for a shape without 68 points or a non-positive frame size;
    ///   the state machines are then left untouched.
    @discardableResult
    public mutating func update(
        _ shape: FaceShape, frameWidth: Int, frameHeight: Int, t: Double, emit: (ExpressionEvent) -> Void
    ) throws -> FaceMeasures {
        let m = try FaceMeasures(shape: shape, frameWidth: frameWidth, frameHeight: frameHeight, poseEstimator: poseEstimator)
        update(m, t: t, emit: emit)
        return m
    }

    /// Advances the state machines with measures computed elsewhere (e.g. replayed ones).
    public mutating func update(_ m: FaceMeasures, t: Double, emit: (ExpressionEvent) -> Void) {
        let yaw = m.pose.yaw
        updateBlinks(t: t, earLeft: m.earLeft, earRight: m.earRight, yaw: yaw, tracked: true, emit: emit)
        smile.update(t: t, value: m.smile, yaw: yaw, tracked: true) { emit(.smile($0, score: $1)) }
        mouthOpen.update(t: t, value: m.mar, yaw: yaw, tracked: true) { emit(.mouthOpen($0, mar: $1)) }
    }

    /// The face was not found in the frame at `t`: ends open intervals and forgets what was learned.
    public mutating func lost(t: Double, emit: (ExpressionEvent) -> Void) {
        updateBlinks(t: t, earLeft: 0, earRight: 0, yaw: 0, tracked: false, emit: emit)
        smile.update(t: t, value: 0, yaw: 0, tracked: false) { emit(.smile($0, score: $1)) }
        mouthOpen.update(t: t, value: 0, yaw: 0, tracked: false) { emit(.mouthOpen($0, mar: $1)) }
    }

    /// Runs the blink state machine, then the learned decision on the same frame (see
    /// `LearnedBlinks`): it watches the frames the state machine watches (tracked, |yaw| ≤
    /// `maxYaw`, finite EARs).
    private mutating func updateBlinks(
        t: Double, earLeft: Double, earRight: Double, yaw: Double, tracked: Bool, emit: (ExpressionEvent) -> Void
    ) {
        guard var learned = learnedBlinks.take() else {
            blink.update(t: t, earLeft: earLeft, earRight: earRight, yaw: yaw, tracked: tracked, emit: emit)
            return
        }
        defer { learnedBlinks = learned }
        blink.update(t: t, earLeft: earLeft, earRight: earRight, yaw: yaw, tracked: tracked) { event in
            learned.stateMachine(event)
            emit(event)
        }
        let busy = blink.isInEpisode
        if tracked, earLeft.isFinite, earRight.isFinite, yaw.isFinite, abs(yaw) <= settings.blink.maxYaw {
            learned.update(t: t, earLeft: earLeft, earRight: earRight, yaw: yaw, busy: busy, emit: emit)
        } else {
            learned.lost(busy: busy, emit: emit)
        }
    }
}
