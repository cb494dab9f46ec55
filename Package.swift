// swift-tools-version:6.1
import Foundation
import PackageDescription

let package = Package(
    name: "Facewatch",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "facewatch", targets: ["FacewatchCLI"]),
        // FacewatchKit re-exports these modules: they are part of what a program that imports it
        // sees, and so of the API that Tests/API/run compares with the last release.
        .library(name: "FacewatchKit", targets: ["FacewatchKit", "FaceCore", "Config", "Events", "Liveness", "Pipeline", "Recordings"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // No traits: the swift-configuration bridge and full-Foundation extras are not used.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // The types every stage shares about a face and a frame: its box, its landmarks, its measures
        // and thresholds, what the processor saw of it, and what a live pipeline tells its observer.
        .target(name: "FaceCore"),
        // C shim over libjpeg(-turbo): setjmp-based error handling, gray/RGB decode, encode.
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        // The runtime CPU check (AVX2, FMA) that every C kernel target's callers consult.
        .target(name: "CCPUFeatures"),
        // AVX2 kernels for the Imaging module, behind the runtime CPU check (Swift otherwise).
        .target(name: "CImagingKernels"),
        // Gray images, JPEG decode/encode, drawing.
        .target(name: "Imaging", dependencies: ["CJPEG", "CCPUFeatures", "CImagingKernels"]),
        // An AVX2 kernel for the commonest form of dlib's serialized floats, behind the runtime CPU check.
        .target(name: "CDlibFormatKernels"),
        // Readers for dlib's serialize() format, shared by every dlib model file.
        .target(name: "DlibFormat", dependencies: ["CCPUFeatures", "CDlibFormatKernels"]),
        // dlib shape_predictor reader and the ensemble-of-regression-trees fit.
        // An AVX2 kernel for the fit's leaf sums, behind the runtime CPU check (Swift SIMD otherwise).
        .target(name: "CLandmarkKernels"),
        .target(name: "Landmarks", dependencies: ["FaceCore", "Imaging", "DlibFormat", "CCPUFeatures", "CLandmarkKernels"]),
        // A second thread that runs one job at a time for its owner (the split HOG scan, the fit beside a check).
        .target(name: "HelperThreads"),
        // dlib's HOG frontal face detector (fHOG pyramid, five separable filters, dlib's NMS).
        // AVX2/FMA kernels for the HOG detector, behind the runtime CPU check (Swift SIMD otherwise).
        .target(name: "CHOGKernels"),
        .target(name: "HOGDetection", dependencies: ["Imaging", "DlibFormat", "CCPUFeatures", "CHOGKernels", "HelperThreads"]),
        // The detector seam over dlib's HOG detector and the OpenCV cascade (a Swift detectMultiScale), box calibration.
        .target(name: "Detection", dependencies: ["FaceCore", "Imaging", "HOGDetection"]),
        // The tracker: landmarks carry a face from frame to frame, window checks, the motion gate, the scan schedule.
        .target(name: "Tracking", dependencies: ["FaceCore", "Detection", "Imaging", "Landmarks", "HelperThreads"]),
        // EAR/MAR/smile/pose measures and the blink, smile and mouth state machines.
        .target(name: "Expressions", dependencies: ["FaceCore"]),
        // The JSON-lines event schema (shared/spec/events.md) and its writer.
        .target(name: "Events", dependencies: ["FaceCore"]),
        // Recording folders (read/write) and the frame-source protocol.
        .target(name: "Recordings", dependencies: ["Imaging"]),
        // C shim over libv4l2: typed ioctl wrappers, open/close/mmap returning errno.
        .target(name: "CV4L2", linkerSettings: [.linkedLibrary("v4l2")]),
        // V4L2 camera capture (and an emulated camera playing a recording) as a frame source.
        .target(name: "Capture", dependencies: ["CV4L2", "Recordings", "Imaging", "Events"]),
        // config.json: every setting, strictly parsed, with the key named in each error.
        .target(name: "Config", dependencies: ["Imaging", "Landmarks", "Detection", "Tracking", "Expressions", "Events", "Pointer"]),
        // Frame source -> decode -> detect/track -> landmarks -> expressions -> events.
        .target(name: "Pipeline", dependencies: [
            "FaceCore", "Imaging", "Landmarks", "Detection", "Tracking", "HOGDetection", "Expressions", "Events", "Recordings", "Config",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // C shim over libmosquitto: a client on its own network thread, counters instead of callbacks.
        .target(name: "CMosquitto", linkerSettings: [.linkedLibrary("mosquitto")]),
        // Where the event stream goes besides standard output: the Unix socket server, MQTT.
        .target(name: "Sinks", dependencies: ["Events", "CMosquitto"]),
        // What people read about a run: eval scores against truth.json, the SVG plot.
        .target(name: "Reports", dependencies: ["Pipeline", "Events", "Recordings"]),
        // Prometheus metrics of a run: frames, latencies, faces, events, checks, reconnects.
        .target(name: "Telemetry", dependencies: [
            "FaceCore", "Events",
            .product(name: "Prometheus", package: "swift-prometheus"),
        ]),
        // The HTTP server: the page, SSE events, MJPEG video, liveness checks, /metrics.
        .target(name: "WebServer", dependencies: [
            "FaceCore", "Events", "Liveness", "Pipeline", "Recordings", "Telemetry",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ], resources: [.copy("Pages")]),
        // C shim over Linux uinput: a virtual absolute pointer with two buttons.
        .target(name: "CUInput"),
        // `facewatch pointer`: nose to pointer (calibration, dead zone, gain, One Euro filter), blinks to clicks.
        .target(name: "Pointer", dependencies: ["CUInput", "Events"]),
        // C shim over OpenBLAS (Debian libopenblas-dev), opened at run time: row-major sgemm.
        .target(name: "COpenBLAS", linkerSettings: [.linkedLibrary("dl")]),
        // dlib's face descriptor: the aligned face chip and the ResNet (dlib_face_recognition_resnet_model_v1).
        .target(name: "FaceDescriptor", dependencies: ["FaceCore", "COpenBLAS", "DlibFormat", "Imaging", "Landmarks"]),
        // Enrolled identities (the store), matching a tracked face against them, what the identity commands share.
        .target(name: "Identity", dependencies: ["FaceCore", "Config", "FaceDescriptor", "Pipeline", "Recordings", "Imaging", "Events"]),
        // Active liveness by challenge and response (`facewatch check`).
        .target(name: "Liveness", dependencies: ["FaceCore", "Events", "Expressions"]),
        // Scoring the liveness check: attack replays, people answering its cues, APCER and BPCER.
        .target(name: "LivenessEvaluation", dependencies: ["FaceCore", "Config", "Landmarks", "Liveness", "Pipeline", "Events", "Recordings"]),
        // The library a Swift program imports: the pipeline on a recording or a camera as an
        // AsyncSequence of events or of processed frames, and the liveness check.
        .target(name: "FacewatchKit", dependencies: ["FaceCore", "Config", "Events", "Liveness", "Pipeline", "Recordings", "Capture"]),
        // The daemon's wiring (`run`, `serve`, `replay --speed`): the sinks besides standard output
        // (socket, web, metrics, MQTT) and their shutdown; the pipeline and the web server as the
        // services of one ServiceGroup, shut down gracefully on SIGINT/SIGTERM.
        .target(name: "Daemon", dependencies: [
            "Config", "Events", "Pipeline", "Recordings", "Sinks", "Telemetry", "WebServer",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // `facewatch bench`'s measurements: the pipeline's stages, micro-benchmarks, the empty view,
        // frame sizes, the model's load, the face descriptor; a report and its JSON form.
        .target(name: "Benchmarks", dependencies: [
            "FaceCore", "Config", "Detection", "Events", "FaceDescriptor", "HOGDetection", "Imaging", "Landmarks", "Pipeline", "Recordings", "Tracking",
        ]),
        // What the libFuzzer targets share: input handling and a corpus replayer for plain builds.
        .target(name: "FuzzSupport"),
        .executableTarget(name: "FacewatchCLI", dependencies: [
            "FaceCore", "Imaging", "Landmarks", "Detection", "Tracking", "Expressions", "Events", "Recordings", "Pipeline", "Liveness", "LivenessEvaluation", "Capture",
            "Config", "Sinks", "Reports", "HOGDetection", "WebServer", "Telemetry", "Pointer", "FaceDescriptor", "Identity",
            "FacewatchKit", "Benchmarks", "Daemon",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "FaceCoreTests", dependencies: ["FaceCore"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging"]),
        .testTarget(name: "FacewatchKitTests", dependencies: ["FacewatchKit"]),
        .testTarget(name: "LandmarksTests", dependencies: ["FaceCore", "Landmarks", "Imaging", "DlibFormat", "CLandmarkKernels"]),
        .testTarget(name: "HelperThreadsTests", dependencies: ["HelperThreads"]),
        .testTarget(name: "HOGDetectionTests", dependencies: ["HOGDetection", "DlibFormat", "Imaging"]),
        .testTarget(name: "DetectionTests", dependencies: ["FaceCore", "Detection", "HOGDetection", "Landmarks", "Imaging"]),
        .testTarget(name: "TrackingTests", dependencies: ["Tracking", "Detection", "FaceCore", "Landmarks", "Imaging"]),
        .testTarget(name: "ExpressionsTests", dependencies: ["FaceCore", "Expressions", "Landmarks"]),
        .testTarget(name: "EventsTests", dependencies: ["FaceCore", "Events", "Landmarks"]),
        .testTarget(name: "RecordingsTests", dependencies: ["Recordings", "Imaging"]),
        .testTarget(name: "LivenessTests", dependencies: ["FaceCore", "Liveness", "Pipeline", "Config", "Recordings", "Events", "Expressions", "Landmarks"]),
        .testTarget(name: "LivenessEvaluationTests", dependencies: ["LivenessEvaluation", "Liveness", "Pipeline", "Config", "Recordings", "Landmarks"]),
        .testTarget(name: "CaptureTests", dependencies: ["Capture", "Recordings", "Imaging"]),
        // Runs the built `facewatch` binary: exit codes, signals, pipes, sockets.
        .testTarget(name: "FacewatchCLITests", dependencies: ["FacewatchCLI", "Recordings", "Imaging"]),
        .testTarget(name: "PipelineTests", dependencies: ["Pipeline", "Config", "Events", "Recordings", "Expressions", "Detection", "Landmarks", "Imaging"]),
        .testTarget(name: "ConfigTests", dependencies: ["Config", "Detection", "Landmarks"]),
        .testTarget(name: "SinksTests", dependencies: ["Sinks", "Events"]),
        .testTarget(name: "WebServerTests", dependencies: [
            "WebServer", "Liveness", "LivenessEvaluation", "Pipeline", "Config", "Recordings", "Events", "Landmarks", "Telemetry",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .testTarget(name: "TelemetryTests", dependencies: ["Telemetry", "Pipeline", "Config", "Recordings", "Events", "Landmarks"]),
        .testTarget(name: "PointerTests", dependencies: ["Pointer", "Events"]),
        .testTarget(name: "FaceDescriptorTests", dependencies: ["FaceDescriptor", "DlibFormat", "Imaging", "Landmarks"]),
        .testTarget(name: "IdentityTests", dependencies: ["Identity", "FaceDescriptor"]),
        .testTarget(name: "BenchmarksTests", dependencies: ["Benchmarks", "Pipeline"]),
        .testTarget(name: "DaemonTests", dependencies: [
            "Daemon", "Config", "Events", "Pipeline", "Recordings", "Sinks",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "Pipeline", "Config", "Events", "Recordings", "Landmarks", "Imaging"]),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets (Tests/Fuzz/run, Scripts/fuzz-long): every `Sources/Fuzz<Name>/` folder except
// FuzzSupport becomes an executable `Fuzz<Name>` depending on the library modules its files import,
// so fuzzing a new reader is one new file and a fuzz build compiles only what that reader needs.
// Built for fuzzing with `-Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING` (libFuzzer provides
// `main`); a plain build replays the files it is given.
let sources = Context.packageDirectory + "/Sources"
let fuzzTargets = ((try? FileManager.default.contentsOfDirectory(atPath: sources)) ?? [])
    .filter { $0.hasPrefix("Fuzz") && $0 != "FuzzSupport" }
    .sorted()
let libraries = Set(package.targets.filter { $0.type == .regular }.map(\.name))
func imports(of target: String) -> [Target.Dependency] {
    let folder = sources + "/" + target
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".swift") }
    let names = files.flatMap { file -> [String] in
        let text = (try? String(contentsOfFile: folder + "/" + file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            line.hasPrefix("import ") ? String(line.dropFirst("import ".count)).trimmingCharacters(in: .whitespaces) : nil
        }
    }
    return Set(names).intersection(libraries).sorted().map { .target(name: $0) }
}
for name in fuzzTargets {
    package.targets.append(.executableTarget(name: name, dependencies: imports(of: name)))
    package.products.append(.executable(name: name, targets: [name]))
}

// `FACEWATCH_TEST_TARGETS=PipelineTests,CaptureTests swift test ...` keeps only these test targets
// and the modules they depend on (no executables, no fuzz targets), so a build for them compiles nothing else: the
// Sanitizers stage uses it for its ThreadSanitizer and AddressSanitizer builds. Unset: everything.
if let selected = Context.environment["FACEWATCH_TEST_TARGETS"], !selected.isEmpty {
    var needed = Set(selected.split(separator: ",").map(String.init))
    var queue = Array(needed)
    while let name = queue.popLast() {
        for dependency in package.targets.first(where: { $0.name == name })?.dependencies ?? [] {
            switch dependency {
            case .targetItem(let target, _), .byNameItem(let target, _):
                if needed.insert(target).inserted { queue.append(target) }
            default: break
            }
        }
    }
    package.targets.removeAll { !needed.contains($0.name) }
    package.products.removeAll()
}
