import ArgumentParser
import Detection
import Foundation
import Imaging
import Landmarks
import Pipeline

/// `facewatch bench`: measures the hot paths (JPEG decode, full-frame detection, a tracked frame,
/// landmark fit, model load) on bundled data, one thread.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure decode, detection, tracking, landmark fit and model load times (build with -c release)."
    )

    @OptionGroup var options: ConfigOptions

    @Option(help: "A JPEG with one face, and its box x,y,w,h, for the decode and fit benchmarks.")
    var image: String = "Tests/Fixtures/bench/face-640x480.jpg"

    @Option(help: "The face box in --image as x,y,w,h.")
    var box: String = "268,110,130,130"

    @Option(help: "Timed iterations per micro-benchmark (after a warm-up of a tenth as many).")
    var iterations: Int = 2000

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    mutating func run() throws {
        let configuration = try options.load()
        var results: [(String, TimingSummary)] = []
        let loadStart = Clock.now()
        let rssBefore = ResidentMemory.current()
        let predictor = try ShapePredictor(contentsOf: configuration.landmarkModel)
        let loadSeconds = Clock.now() - loadStart
        let modelMB = Double(ResidentMemory.current() - rssBefore) / 1_048_576

        let jpeg = try readFile(image)
        let faceBox = try parseBox(box)
        var decoder = JPEGDecoder()
        var gray = GrayImage(width: 0, height: 0)
        for conversion in GrayConversion.allCases {
            results.append(("decode \(conversion.rawValue)", try measure(iterations) {
                try decoder.decode(jpeg, into: &gray, conversion: conversion)
            }))
        }
        try decoder.decode(jpeg, into: &gray)
        var shape = FaceShape(points: [])
        results.append(("landmark fit", try measure(iterations) {
            predictor.fit(gray, box: faceBox, into: &shape)
        }))
        let classifier = try CascadeClassifier(contentsOf: configuration.faceCascade)
        var detector = try CascadeDetector(classifier: classifier, settings: configuration.detector)
        var faces: [FaceBox] = []
        results.append(("full-frame detection", try measure(max(20, iterations / 10)) {
            detector.detect(gray, into: &faces)
        }))
        let tracker = try FaceTracker(detector: detector, predictor: predictor, settings: configuration.tracking)
        let t = 0.0
        tracker.update(gray, t: t)
        guard tracker.faces.count == 1 else { throw CommandError("\(image): the detector does not find exactly one face") }
        // A tracked frame: box from the last landmarks, fit, and every few frames the window check.
        // Time stands still so the periodic full-frame detection never falls due.
        results.append(("tracked frame", try measure(iterations) {
            tracker.update(gray, t: t)
        }))
        guard tracker.faces.count == 1, tracker.detectorRuns == 1 else {
            throw CommandError("tracking lost the face or re-ran the detector during the benchmark")
        }

        if json {
            let stages = results.map { "\"\($0.0)\": \($0.1.json)" }.joined(separator: ", ")
            print("{\"image\": \"\(image)\", \"size\": [\(gray.width), \(gray.height)], \"stages_ms\": {\(stages)}, "
                + "\"model_load_s\": \(String(format: "%.3f", loadSeconds)), \"model_rss_mb\": \(String(format: "%.1f", modelMB))}")
        } else {
            print("image \(image) (\(gray.width)×\(gray.height)), \(iterations) iterations")
            print("stage".padding(toLength: 22, withPad: " ", startingAt: 0) + TimingSummary.header)
            for (name, summary) in results {
                print(name.padding(toLength: 22, withPad: " ", startingAt: 0) + summary.row)
            }
            print("model load \(String(format: "%.3f", loadSeconds)) s, resident memory held by the model \(String(format: "%.1f", modelMB)) MB")
            print("model: \(predictor.structure)")
        }
    }

    private func measure(_ iterations: Int, _ body: () throws -> Void) throws -> TimingSummary {
        for _ in 0..<max(1, iterations / 10) { try body() }
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for _ in 0..<iterations {
            let start = Clock.now()
            try body()
            samples.append((Clock.now() - start) * 1000)
        }
        return TimingSummary(samples)
    }
}
