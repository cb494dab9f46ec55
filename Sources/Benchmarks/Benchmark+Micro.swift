import Config
import Detection
import FaceCore
import FaceDescriptor
import Foundation
import Imaging
import Landmarks
import Pipeline
import Recordings
import Tracking

extension Benchmark {
    /// Decode, one landmark fit, one full-frame detection and one tracked frame on the recording's first frame.
    func benchMicro(_ opened: Recording, _ configuration: Configuration, predictor: ShapePredictor) throws -> [(String, TimingSummary)] {
        let jpeg = try opened.jpeg(0)
        let image = "frame 0 of \(opened.directory)"
        var decoder = JPEGDecoder()
        var gray = GrayImage(width: 0, height: 0)
        var results: [(String, TimingSummary)] = []
        for conversion in GrayConversion.allCases {
            results.append(("decode \(conversion.rawValue)", try measure(iterations) {
                try decoder.decode(jpeg, into: &gray, conversion: conversion)
            }))
        }
        try decoder.decode(jpeg, into: &gray, conversion: configuration.gray)
        var detector = try configuration.loadFaceDetector()
        var faces: [DetectedFace] = []
        results.append(("full-frame detection", try measure(max(20, iterations / 10)) {
            detector.detect(gray, look: 0, into: &faces)
        }))
        let tracker = FaceTracker(detector: detector, predictor: predictor, settings: configuration.tracking)
        tracker.update(gray, t: 0)
        guard let face = tracker.faces.first, tracker.faces.count == 1 else {
            throw BenchmarkError("\(image): the detector does not find exactly one face")
        }
        var shape = FaceShape(points: [])
        results.append(("landmark fit, repeated", try measure(iterations) {
            predictor.fit(gray, box: face.box, into: &shape)
        }))
        // The window check a tracked face gets every `verify_every_frames` frames: the area around
        // its box resampled upright and scanned (not the same work as the detector's `ScanArea`
        // scan of the frame, "hog around the face").
        let checked = predictor.box(fitting: face.shape)
        results.append(("window check", try measure(iterations) {
            precondition(detector.confirm(checked, roll: 0, in: gray), "the window check lost the face")
        }))
        // A tracked frame: box from the last landmarks, fit, and every few frames the window check.
        // The clock stands still, so the periodic full-frame detection never falls due.
        results.append(("tracked frame", try measure(iterations) {
            tracker.update(gray, t: 0)
        }))
        guard tracker.faces.count == 1, tracker.detectorRuns == 1 else {
            throw BenchmarkError("tracking lost the face or re-ran the detector during the benchmark")
        }
        return results
    }

    /// dlib's face chip and the descriptor network, one face after another from the identity
    /// fixtures (varied sizes, one through dlib's pyramid); nil when the model is not installed or the
    /// repository's fixtures are not at hand.
    func benchDescriptor() throws -> [(String, TimingSummary)]? {
        let network: DescriptorNetwork
        do {
            network = try DescriptorNetwork()
        } catch FaceDescriptorError.modelMissing {
            return nil
        }
        guard let folder = files.identityFixtures() else { return nil }
        guard let document = try JSONSerialization.jsonObject(with: Self.contents(of: folder + "descriptors.json")) as? [String: Any],
              let entries = document["faces"] as? [[String: Any]] else {
            throw BenchmarkError("\(folder)descriptors.json: not the fixture file")
        }
        var decoder = JPEGDecoder()
        var faces: [(image: RGBImage, points: [SIMD2<Int>])] = []
        for entry in entries {
            guard let image = entry["image"] as? String, let points = entry["points"] as? [[Int]], points.count == 68 else {
                throw BenchmarkError("\(folder)descriptors.json: a face without image or 68 points")
            }
            faces.append((try decoder.decodeRGB(Self.contents(of: folder + image)), points.map { SIMD2($0[0], $0[1]) }))
        }
        var chip = FaceChip()
        var output = [Float](repeating: 0, count: DescriptorNetwork.descriptorLength)
        var next = 0
        func face() -> (image: RGBImage, points: [SIMD2<Int>]) {
            defer { next = (next + 1) % faces.count }
            return faces[next]
        }
        let runs = max(32, iterations / 20)
        let chipTimes = try measure(runs) {
            let f = face()
            try chip.extract(from: f.image, points: f.points)
        }
        let networkTimes = try measure(runs) {
            let f = face()
            try chip.extract(from: f.image, points: f.points)
            chip.pixels.withUnsafeBufferPointer { c in output.withUnsafeMutableBufferPointer { network.describe(chip: c, into: $0) } }
        }
        return [("face chip", chipTimes), ("face descriptor", networkTimes)]
    }
}
