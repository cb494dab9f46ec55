import FacewatchKit
import Foundation

// Counts the blinks in a recording folder (default: the bundled Recordings/blinks-slow-move)
// with FacewatchKit, printing each as it comes; exits 1 when the recording cannot be read.
let recording = CommandLine.arguments.dropFirst().first ?? "Recordings/blinks-slow-move"
var blinks = 0
do {
    for try await event in Facewatch().events(replaying: recording) {
        if case .blink(let face, let start, let duration) = event.payload {
            blinks += 1
            print(String(format: "blink %d: face %d at %.2f s, %.0f ms", blinks, face, start, duration * 1000))
        }
    }
    print("\(blinks) blinks in \(recording)")
} catch {
    FileHandle.standardError.write(Data("BlinkCounter: \(error)\n".utf8))
    exit(1)
}
