// swift-tools-version:6.1
import PackageDescription

// An app that uses Facewatch as a library: it depends on the repository by path and imports
// FacewatchKit. Build and run from the repository root:
//   swift run --package-path Examples/BlinkCounter BlinkCounter Recordings/blinks-slow-move
let package = Package(
    name: "BlinkCounter",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Facewatch", path: "../.."),
    ],
    targets: [
        .executableTarget(name: "BlinkCounter", dependencies: [
            .product(name: "FacewatchKit", package: "Facewatch"),
        ]),
    ]
)
