// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Facewatch",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "facewatch", targets: ["FacewatchCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // C shim over libjpeg(-turbo): setjmp-based error handling, gray/RGB decode, encode.
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        // Gray images, JPEG decode/encode, drawing.
        .target(name: "Imaging", dependencies: ["CJPEG"]),
        // Readers for dlib's serialize() format, shared by every dlib model file.
        .target(name: "DlibFormat"),
        // dlib shape_predictor reader and the ensemble-of-regression-trees fit.
        .target(name: "Landmarks", dependencies: ["Imaging", "DlibFormat"]),
        // OpenCV cascade detector, box mapping and tracking.
        .target(name: "Detection", dependencies: ["Imaging", "Landmarks"]),
        // EAR/MAR/smile/pose measures and the blink, smile and mouth state machines.
        .target(name: "Expressions", dependencies: ["Landmarks"]),
        // The JSON-lines event schema (shared/spec/events.md) and its writer.
        .target(name: "Events", dependencies: ["Landmarks"]),
        // Recording folders (read/write) and the frame-source protocol.
        .target(name: "Recordings", dependencies: ["Imaging"]),
        // C shim over libv4l2: typed ioctl wrappers, open/close/mmap returning errno.
        .target(name: "CV4L2", linkerSettings: [.linkedLibrary("v4l2")]),
        // V4L2 camera capture (and an emulated camera playing a recording) as a frame source.
        .target(name: "Capture", dependencies: ["CV4L2", "Recordings", "Imaging"]),
        // config.json: every setting, strictly parsed, with the key named in each error.
        .target(name: "Config", dependencies: ["Imaging", "Detection", "Expressions", "Events"]),
        // Frame source -> decode -> detect/track -> landmarks -> expressions -> events.
        .target(name: "Pipeline", dependencies: [
            "Imaging", "Landmarks", "Detection", "Expressions", "Events", "Recordings", "Config",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Where the event stream goes besides standard output: the Unix socket server.
        .target(name: "Sinks", dependencies: ["Events"]),
        // What people read about a run: eval scores against truth.json, the SVG plot.
        .target(name: "Reports", dependencies: ["Pipeline", "Events", "Recordings"]),
        // C shim over OpenBLAS (Debian libopenblas-dev): row-major sgemm, thread count.
        .target(name: "COpenBLAS", linkerSettings: [.linkedLibrary("openblas")]),
        // dlib's face descriptor: the aligned face chip and the ResNet (dlib_face_recognition_resnet_model_v1).
        .target(name: "FaceDescriptor", dependencies: ["COpenBLAS", "DlibFormat", "Imaging", "Landmarks"]),
        // Enrolled identities (the store) and matching a tracked face against them.
        .target(name: "Identity", dependencies: ["FaceDescriptor", "Pipeline", "Recordings", "Imaging", "Events"]),
        // Active liveness by challenge and response (`facewatch check`).
        .target(name: "Liveness", dependencies: ["Pipeline", "Events", "Expressions"]),
        .executableTarget(name: "FacewatchCLI", dependencies: [
            "Imaging", "Landmarks", "Detection", "Expressions", "Events", "Recordings", "Pipeline", "Liveness", "Capture",
            "Config", "Sinks", "Reports", "FaceDescriptor", "Identity",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging"]),
        .testTarget(name: "LandmarksTests", dependencies: ["Landmarks", "Imaging"]),
        .testTarget(name: "DetectionTests", dependencies: ["Detection", "Landmarks", "Imaging"]),
        .testTarget(name: "ExpressionsTests", dependencies: ["Expressions", "Landmarks"]),
        .testTarget(name: "EventsTests", dependencies: ["Events", "Landmarks"]),
        .testTarget(name: "RecordingsTests", dependencies: ["Recordings", "Imaging"]),
        .testTarget(name: "LivenessTests", dependencies: ["Liveness", "Pipeline", "Config", "Recordings", "Events", "Landmarks"]),
        .testTarget(name: "CaptureTests", dependencies: ["Capture", "Recordings", "Imaging"]),
        // Runs the built `facewatch` binary: exit codes, signals, pipes, sockets.
        .testTarget(name: "FacewatchCLITests", dependencies: ["FacewatchCLI", "Recordings", "Imaging"]),
        .testTarget(name: "PipelineTests", dependencies: ["Pipeline", "Config", "Recordings", "Expressions", "Detection", "Landmarks", "Imaging"]),
        .testTarget(name: "ConfigTests", dependencies: ["Config", "Detection"]),
        .testTarget(name: "SinksTests", dependencies: ["Sinks", "Events"]),
        .testTarget(name: "FaceDescriptorTests", dependencies: ["FaceDescriptor", "DlibFormat", "Imaging", "Landmarks"]),
        .testTarget(name: "IdentityTests", dependencies: ["Identity", "FaceDescriptor"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "Pipeline", "Config", "Events", "Recordings", "Landmarks", "Imaging"]),
    ],
    swiftLanguageModes: [.v5]
)
