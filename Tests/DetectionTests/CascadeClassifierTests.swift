@testable import Detection
import Foundation
import XCTest

final class CascadeClassifierTests: XCTestCase {
    func testReadsDefaultHaarCascade() throws {
        let cascade = try SystemCascade.haarFrontalFaceDefault.load()
        XCTAssertEqual(cascade.featureType, .haar)
        XCTAssertEqual(cascade.windowWidth, 24)
        XCTAssertEqual(cascade.windowHeight, 24)
        XCTAssertEqual(cascade.stageCount, 25)
        XCTAssertTrue(cascade.isStumpBased)
        XCTAssertFalse(cascade.hasTiltedFeatures)
        // First stage: 9 stumps, threshold -5.0425500869750977 lowered by 1e-5 in float.
        XCTAssertEqual(cascade.stages[0].treeCount, 9)
        XCTAssertEqual(cascade.stages[0].threshold, Float(-5.0425500869750977) - Float(1e-5))
        XCTAssertEqual(cascade.stages.map(\.treeCount).max(), 211)
        XCTAssertEqual(cascade.weakClassifierCount, cascade.stages.reduce(0) { $0 + $1.treeCount })
        // Feature 0 of the file: rects "6 4 12 9 -1." and "6 7 12 3 3.".
        XCTAssertEqual(cascade.featureRects[0], .init(x: 6, y: 4, width: 12, height: 9, weight: -1))
        XCTAssertEqual(cascade.featureRects[1], .init(x: 6, y: 7, width: 12, height: 3, weight: 3))
        XCTAssertEqual(cascade.featureRects[2].weight, 0)
    }

    func testReadsTreeCascade() throws {
        let cascade = try SystemCascade.haarFrontalFaceAlt2.load()
        XCTAssertEqual(cascade.windowWidth, 20)
        XCTAssertEqual(cascade.stageCount, 20)
        XCTAssertFalse(cascade.isStumpBased)
        // Stage 0, tree 0: "0 1 0 4.3272329494357109e-03 -1 -2 1 1.3076160103082657e-02".
        let tree = cascade.trees[0]
        XCTAssertEqual(tree.nodeCount, 2)
        XCTAssertEqual(cascade.nodes[0].left, 0)
        XCTAssertEqual(cascade.nodes[0].right, 1)
        XCTAssertEqual(cascade.nodes[1].left, -1)
        XCTAssertEqual(cascade.nodes[1].right, -2)
        XCTAssertEqual(cascade.nodes[1].threshold, Float(1.3076160103082657e-02))
        XCTAssertEqual(cascade.leaves[0..<3], [Float(3.8381900638341904e-02), Float(8.9652568101882935e-01),
                                                Float(2.6293140649795532e-01)])
    }

    func testReadsLBPCascadeWithoutTypeAttribute() throws {
        let cascade = try SystemCascade.lbpFrontalFaceImproved.load()
        XCTAssertEqual(cascade.featureType, .lbp)
        XCTAssertEqual(cascade.windowWidth, 45)
        XCTAssertEqual(cascade.stageCount, 19)
        XCTAssertTrue(cascade.isStumpBased)
        XCTAssertEqual(cascade.stages[0].treeCount, 6)
        // Stage 0, stump 0: "0 -1 26 -1 -1 -17409 -1 -1 -1 -1 -1".
        XCTAssertEqual(cascade.nodes[0].feature, 26)
        XCTAssertEqual(Array(cascade.subsets[0..<8]), [UInt32.max, UInt32.max, UInt32(bitPattern: -17409),
                                                       UInt32.max, UInt32.max, UInt32.max, UInt32.max, UInt32.max])
    }

    func testReadsCascadeWithTiltedFeatures() throws {
        let cascade = try CascadeClassifier(contentsOf: SystemCascade.directory + "/haarcascades/haarcascade_upperbody.xml")
        XCTAssertTrue(cascade.hasTiltedFeatures)
        XCTAssertEqual(cascade.stageCount, 30)
    }

    func testEveryInstalledCascadeLoadsOrFailsClearly() throws {
        let directory = SystemCascade.directory
        for folder in ["haarcascades", "lbpcascades"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: "\(directory)/\(folder)").filter { $0.hasSuffix(".xml") }
            XCTAssertFalse(files.isEmpty)
            for file in files {
                let path = "\(directory)/\(folder)/\(file)"
                do {
                    let cascade = try CascadeClassifier(contentsOf: path)
                    XCTAssertGreaterThan(cascade.stageCount, 0, file)
                } catch let error as CascadeError {
                    // Only the one pre-2.0 file in opencv-data is expected to be refused.
                    XCTAssertEqual(file, "haarcascade_licence_plate_rus_16stages.xml", "\(error)")
                    XCTAssertTrue(error.reason.contains("old"), error.reason)
                }
            }
        }
    }

    // MARK: - Error paths

    private func assertLoadError(_ path: String, contains fragment: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try CascadeClassifier(contentsOf: path), file: file, line: line) { error in
            guard let error = error as? CascadeError else {
                return XCTFail("unexpected error type \(error)", file: file, line: line)
            }
            let message = error.description
            XCTAssertTrue(message.contains(path), message, file: file, line: line)
            XCTAssertTrue(message.contains("apt-get install opencv-data"), message, file: file, line: line)
            XCTAssertTrue(message.contains(fragment), "expected \"\(fragment)\" in: \(message)", file: file, line: line)
        }
    }

    private func temporaryFile(_ contents: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "cascade-test-\(UUID().uuidString).xml"
        try Data(contents).write(to: URL(fileURLWithPath: path))
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    func testMissingFile() {
        assertLoadError("/nonexistent/haarcascade_frontalface_default.xml", contains: "no such file")
    }

    func testNonXMLFile() throws {
        let jpeg = try Data(contentsOf: DetectionFixtures.directory.appendingPathComponent("no_face.jpg"))
        assertLoadError(try temporaryFile([UInt8](jpeg)), contains: "not an XML file")
        assertLoadError(try temporaryFile([]), contains: "empty")
    }

    func testTruncatedXML() throws {
        let full = try Data(contentsOf: URL(fileURLWithPath: SystemCascade.haarFrontalFaceDefault.path))
        assertLoadError(try temporaryFile([UInt8](full.prefix(full.count / 2))), contains: "truncated")
    }

    func testXMLThatIsNotACascade() throws {
        let other = Array("<?xml version=\"1.0\"?>\n<opencv_storage>\n<camera_matrix type_id=\"opencv-matrix\"><rows>3</rows></camera_matrix>\n</opencv_storage>\n".utf8)
        assertLoadError(try temporaryFile(other), contains: "not <cascade>")
        let html = Array("<html><body>hello</body></html>".utf8)
        assertLoadError(try temporaryFile(html), contains: "not an OpenCV cascade file")
        let mismatched = Array("<opencv_storage><cascade></stages></opencv_storage>".utf8)
        assertLoadError(try temporaryFile(mismatched), contains: "does not match")
    }

    func testOldFormatCascadeIsRefused() {
        assertLoadError(SystemCascade.directory + "/haarcascades/haarcascade_licence_plate_rus_16stages.xml",
                        contains: "old (pre-2.0) Haar format")
    }

    func testCascadeWithBadIndicesIsRefused() throws {
        func cascade(nodes: String, leaves: String) -> [UInt8] {
            Array("""
            <?xml version="1.0"?>
            <opencv_storage><cascade type_id="opencv-cascade-classifier">
            <stageType>BOOST</stageType><featureType>HAAR</featureType><height>4</height><width>4</width>
            <featureParams><maxCatCount>0</maxCatCount></featureParams><stageNum>1</stageNum>
            <stages><_><maxWeakCount>1</maxWeakCount><stageThreshold>0.5</stageThreshold>
            <weakClassifiers><_><internalNodes>\(nodes)</internalNodes><leafValues>\(leaves)</leafValues></_></weakClassifiers></_></stages>
            <features><_><rects><_>0 0 4 2 -1.</_><_>0 2 4 2 1.</_></rects></_></features>
            </cascade></opencv_storage>
            """.utf8)
        }
        // A well-formed one loads.
        let good = try CascadeClassifier(xml: cascade(nodes: "0 -1 0 0.1", leaves: "-1 1"), path: "good.xml")
        XCTAssertEqual(good.weakClassifierCount, 1)
        assertLoadError(try temporaryFile(cascade(nodes: "0 -1 3 0.1", leaves: "-1 1")), contains: "uses feature 3")
        assertLoadError(try temporaryFile(cascade(nodes: "0 -1 0 0.1", leaves: "-1")), contains: "leaves")
        assertLoadError(try temporaryFile(cascade(nodes: "0 -5 0 0.1", leaves: "-1 1")), contains: "refers to node or leaf -5")
        assertLoadError(try temporaryFile(cascade(nodes: "0 -1 0 x", leaves: "-1 1")), contains: "not a number")
    }
}
