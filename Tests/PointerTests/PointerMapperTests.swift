import Events
import Pointer
import XCTest

/// Nose to pointer: calibration, dead zone, gain, mirroring, clamping; and blinks to clicks.
final class PointerMapperTests: XCTestCase {
    private func settings(gain: Double = 4, deadZone: Double = 0.01, mirror: Bool = true) -> PointerConfiguration {
        var settings = PointerConfiguration()
        settings.gain = gain
        settings.deadZone = deadZone
        settings.mirror = mirror
        settings.calibrate = 0.5
        settings.minCutoff = 1e9  // no smoothing: these tests look at the mapping
        settings.beta = 0
        return settings
    }

    private func calibrated(_ settings: PointerConfiguration, at neutral: (Double, Double) = (0.5, 0.4)) -> PointerMapper {
        var mapper = PointerMapper(settings: settings)
        for n in 0...15 { XCTAssertNil(mapper.update(noseX: neutral.0, noseY: neutral.1, t: Double(n) / 30)) }
        return mapper
    }

    func testCalibrationFindsTheNeutralPoint() throws {
        var mapper = PointerMapper(settings: settings())
        XCTAssertNil(mapper.update(noseX: 0.48, noseY: 0.40, t: 0))
        XCTAssertNil(mapper.update(noseX: 0.52, noseY: 0.42, t: 0.25))
        XCTAssertNil(mapper.update(noseX: 0.50, noseY: 0.41, t: 0.5))
        let neutral = try XCTUnwrap(mapper.neutral)
        XCTAssertEqual(neutral.x, 0.5, accuracy: 1e-12)
        XCTAssertEqual(neutral.y, 0.41, accuracy: 1e-12)
        let centre = try XCTUnwrap(mapper.update(noseX: 0.5, noseY: 0.41, t: 0.6))
        XCTAssertEqual(centre.x, 0.5, accuracy: 1e-9)
        XCTAssertEqual(centre.y, 0.5, accuracy: 1e-9)
    }

    func testDeadZoneGainMirrorAndClamp() throws {
        var mapper = calibrated(settings())
        // Inside the dead zone: the pointer stays centred.
        let still = try XCTUnwrap(mapper.update(noseX: 0.508, noseY: 0.395, t: 1))
        XCTAssertEqual(still.x, 0.5, accuracy: 1e-6)
        XCTAssertEqual(still.y, 0.5, accuracy: 1e-6)
        // Nose 0.06 to the image's right (the user's left, mirrored): 0.05 past the dead zone × 4.
        let left = try XCTUnwrap(mapper.update(noseX: 0.56, noseY: 0.4, t: 1.1))
        XCTAssertEqual(left.x, 0.5 - 4 * 0.05, accuracy: 1e-6)
        // Down 0.03: 0.02 × 4 down.
        let down = try XCTUnwrap(mapper.update(noseX: 0.5, noseY: 0.43, t: 1.2))
        XCTAssertEqual(down.y, 0.5 + 4 * 0.02, accuracy: 1e-6)
        // Far off: clamped to the screen.
        let far = try XCTUnwrap(mapper.update(noseX: 0.1, noseY: 0.9, t: 1.3))
        XCTAssertEqual(far.x, 1)
        XCTAssertEqual(far.y, 1)
        var unmirrored = calibrated(settings(mirror: false))
        XCTAssertEqual(try XCTUnwrap(unmirrored.update(noseX: 0.56, noseY: 0.4, t: 1)).x, 0.5 + 4 * 0.05, accuracy: 1e-6)
    }

    /// Records what the driver does.
    private final class Recorder: PointerOutput {
        var actions: [PointerAction] = []
        func perform(_ action: PointerAction, t: Double, frame: Int) throws { actions.append(action) }
    }

    func testLongBlinksOrWinksClickAndOnlyTheFirstFaceCounts() throws {
        var longBlink = settings()
        longBlink.longBlink = 0.3
        let recorder = Recorder()
        let driver = PointerDriver(settings: longBlink, output: recorder)
        try driver.write(Event(t: 0, frame: 0, .nose(face: 1, x: 0.5, y: 0.5)))
        try driver.write(Event(t: 1, frame: 30, .blink(face: 1, start: 0.8, duration: 0.15)))
        try driver.write(Event(t: 2, frame: 60, .blink(face: 1, start: 1.6, duration: 0.35)))
        try driver.write(Event(t: 2, frame: 60, .blink(face: 2, start: 1.6, duration: 0.45)))
        try driver.write(Event(t: 2, frame: 60, .wink(face: 1, eye: .left, start: 1.6, duration: 0.3)))
        XCTAssertEqual(recorder.actions, [.click(.left)], "one long blink of face 1; the short one, face 2 and winks do not click")

        var winks = settings()
        winks.click = .wink
        let winkRecorder = Recorder()
        let winkDriver = PointerDriver(settings: winks, output: winkRecorder)
        try winkDriver.write(Event(t: 0, frame: 0, .nose(face: 3, x: 0.5, y: 0.5)))
        try winkDriver.write(Event(t: 1, frame: 30, .wink(face: 3, eye: .right, start: 0.8, duration: 0.3)))
        try winkDriver.write(Event(t: 2, frame: 60, .blink(face: 3, start: 1.6, duration: 0.45)))
        XCTAssertEqual(winkRecorder.actions, [.click(.right)])
    }
}
