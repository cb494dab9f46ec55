import FaceDescriptor
import Foundation
import Identity
import XCTest

final class IdentityStoreTests: XCTestCase {
    private var folder: String!

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "facewatch-identity-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        chmod(folder + "/store", 0o700)
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func descriptor(_ seed: Float) -> FaceDescriptor {
        FaceDescriptor((0..<128).map { Float($0) * 0.001 + seed })
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0, path)
        return info.st_mode & 0o777
    }

    func testMissingStoreIsEmptyAndFirstEnrolmentCreates0700Folder0600File() throws {
        let path = folder + "/store/ids.json"
        var store = try IdentityStore(path: path)
        XCTAssertEqual(store.identities, [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "opening must not create the file")
        let old = umask(0o022)
        defer { umask(old) }
        try store.enroll(Identity(name: "alice", enrolledAt: 1, descriptors: [descriptor(0.1)]))
        XCTAssertEqual(mode(folder + "/store"), 0o700)
        XCTAssertEqual(mode(path), 0o600)
        let reopened = try IdentityStore(path: path)
        XCTAssertEqual(reopened.identities.map(\.name), ["alice"])
        XCTAssertEqual(reopened.identity(named: "alice")?.descriptors, [descriptor(0.1)])
    }

    func testStoreHoldsOnlyNamesTimesAndDescriptors() throws {
        let path = folder + "/store/ids.json"
        var store = try IdentityStore(path: path)
        try store.enroll(Identity(name: "alice", enrolledAt: 1, descriptors: [descriptor(0.1), descriptor(0.2)]))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        XCTAssertEqual(Set(json.keys), ["format", "version", "identities"])
        let identity = (json["identities"] as! [[String: Any]])[0]
        XCTAssertEqual(Set(identity.keys), ["name", "enrolledAt", "descriptors"])
        XCTAssertEqual((identity["descriptors"] as! [[String: Any]]).count, 2)
    }

    func testRemoveAndReplace() throws {
        let path = folder + "/store/ids.json"
        var store = try IdentityStore(path: path)
        try store.enroll(Identity(name: "alice", enrolledAt: 1, descriptors: [descriptor(0.1)]))
        try store.enroll(Identity(name: "bob", enrolledAt: 2, descriptors: [descriptor(0.5)]))
        try store.enroll(Identity(name: "alice", enrolledAt: 3, descriptors: [descriptor(0.3)]))
        XCTAssertEqual(try IdentityStore(path: path).identity(named: "alice")?.enrolledAt, 3)
        try store.remove("alice")
        XCTAssertEqual(try IdentityStore(path: path).identities.map(\.name), ["bob"])
        XCTAssertThrowsError(try store.remove("carol")) { XCTAssertEqual($0 as? IdentityError, .unknownName("carol")) }
        XCTAssertThrowsError(try store.enroll(Identity(name: "a b", enrolledAt: 0, descriptors: [descriptor(0)])))
    }

    func testCorruptStoreIsAnErrorNeverEmpty() throws {
        let path = folder + "/store/ids.json"
        var store = try IdentityStore(path: path)
        try store.enroll(Identity(name: "alice", enrolledAt: 1, descriptors: [descriptor(0.1)]))
        for bad in ["", "{", "{\"format\":\"facewatch-identities\",\"version\":1}", "[1,2]",
                    "{\"format\":\"other\",\"version\":1,\"identities\":[]}",
                    "{\"format\":\"facewatch-identities\",\"version\":1,\"identities\":[{\"name\":\"x\",\"enrolledAt\":0,\"descriptors\":[{\"values\":[1,2]}]}]}"] {
            try Data(bad.utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o600)
            XCTAssertThrowsError(try IdentityStore(path: path), bad) { error in
                guard case .corruptStore(let p, _)? = error as? IdentityError else { return XCTFail("\(error)") }
                XCTAssertEqual(p, path)
            }
        }
    }

    func testFailedWriteKeepsThePreviousStore() throws {
        let path = folder + "/store/ids.json"
        var store = try IdentityStore(path: path)
        try store.enroll(Identity(name: "alice", enrolledAt: 1, descriptors: [descriptor(0.1)]))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        // A temporary file that cannot be created (the folder is read-only) stands in for a full disk.
        chmod(folder + "/store", 0o500)
        defer { chmod(folder + "/store", 0o700) }
        if getuid() == 0 {
            // root ignores folder permissions: fill the temporary file's name with a folder instead.
            chmod(folder + "/store", 0o700)
            try FileManager.default.createDirectory(atPath: path + ".tmp-\(getpid())", withIntermediateDirectories: false)
        }
        XCTAssertThrowsError(try store.enroll(Identity(name: "bob", enrolledAt: 2, descriptors: [descriptor(0.5)])))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
        XCTAssertEqual(store.identities.map(\.name), ["alice"], "the in-memory store is unchanged too")
        XCTAssertEqual(try IdentityStore(path: path).identities.map(\.name), ["alice"])
    }

    func testInsecurePermissionsAreRefused() throws {
        let path = folder + "/store/ids.json"
        var store = try IdentityStore(path: path)
        try store.enroll(Identity(name: "alice", enrolledAt: 1, descriptors: [descriptor(0.1)]))
        chmod(path, 0o644)
        XCTAssertThrowsError(try IdentityStore(path: path)) { error in
            guard case .insecure? = error as? IdentityError else { return XCTFail("\(error)") }
        }
        chmod(path, 0o600)
        chmod(folder + "/store", 0o755)
        XCTAssertThrowsError(try store.enroll(Identity(name: "bob", enrolledAt: 2, descriptors: [descriptor(0.5)]))) { error in
            guard case .insecure? = error as? IdentityError else { return XCTFail("\(error)") }
        }
    }

    func testReferenceMatchesOnTheClosestDescriptorBelowTheThreshold() {
        let reference = IdentityReference(name: "alice", descriptors: [descriptor(0.1), descriptor(0.3)])
        let near = reference.compare(descriptor(0.31), threshold: 0.6)
        XCTAssertEqual(near.distance, 0.01 * 128.0.squareRoot(), accuracy: 1e-4)
        XCTAssertTrue(near.match)
        XCTAssertFalse(reference.compare(descriptor(0.5), threshold: 0.6).match)  // 0.2·√128 ≈ 2.26
        XCTAssertFalse(IdentityMatch(name: "x", distance: 0.6, threshold: 0.6).match, "at the threshold is not a match")
    }

    func testAFaceEnrolledUnderAnotherNameIsFound() throws {
        var store = try IdentityStore(path: folder + "/store/ids.json")
        try store.enroll(Identity(name: "alice", enrolledAt: 1, descriptors: [descriptor(0.1)]))
        try store.enroll(Identity(name: "bob", enrolledAt: 2, descriptors: [descriptor(5)]))
        let again = [descriptor(3), descriptor(0.1)]
        let found = try XCTUnwrap(store.enrolledElsewhere(again, name: "carol", threshold: 0.6))
        XCTAssertEqual(found.name, "alice")
        XCTAssertEqual(found.distance, 0, accuracy: 1e-6, "the nearest of the descriptors")
        XCTAssertNil(store.enrolledElsewhere(again, name: "alice", threshold: 0.6), "its own name is no conflict")
        XCTAssertNil(store.enrolledElsewhere([descriptor(2)], name: "carol", threshold: 0.6))
    }
}
