import Foundation
import GalleryConfig
import GalleryOutput
import Testing

/// `galleryssg deploy` against moto's S3 server on 127.0.0.1 with signatures checked; every result
/// is confirmed with the AWS CLI, a second and independent S3 client.
@Suite(
    "Deploy to S3 (moto)", .serialized,
    .enabled(
        if: MotoServer.available,
        "moto_server and aws are not on PATH; pip install \"moto[server]\" awscli (.ci/run does)"))
struct DeployS3Tests {
    static var three: [[String: Any]] { Array(IncrementalFixtures.five.prefix(3)) }

    @Test func firstDeployUploadsEverythingInOrderAndTheSecondNothing() async throws {
        let server = try await MotoServer(buckets: ["photos"])
        defer { server.stop() }
        let site = try await DeployFixtures.site(photos: Self.three)
        try server.aws([
            "s3api", "put-object", "--bucket", "photos", "--key", "elsewhere/keep.txt", "--body", site.configURL.path
        ])
        let local = try DeployFixtures.digests(site.output)
        let lines = DeployFixtures.Lines()

        let first = try await server.deploy(site, prefix: "site/", lines: lines)
        #expect(first.uploaded == local.count && first.deleted == 0 && first.plan.unchanged == 0)
        #expect(
            first.uploadedBytes
                == local.keys.reduce(0) {
                    $0 + ((try? Data(contentsOf: site.output.appendingPathComponent($1)))?.count ?? 0)
                })
        // The AWS CLI sees every file under the prefix, byte for byte (single-part ETag = MD5), and nothing else was touched.
        let remote = try server.objects("photos", prefix: "site/")
        #expect(remote == Dictionary(uniqueKeysWithValues: local.map { ("site/" + $0.key, $0.value) }))
        #expect(try server.objects("photos", prefix: "elsewhere/").keys.sorted() == ["elsewhere/keep.txt"])
        // Every image and asset arrived before the first page.
        let order = lines.all.map { String($0.dropFirst(2)) }
        let firstPage = try #require(order.firstIndex(where: LocalSite.isPage))
        #expect(!order[firstPage...].contains { !LocalSite.isPage($0) })
        #expect(order.last?.hasSuffix(".html") == true)

        // Headers: Content-Type from the extension, Cache-Control from _headers (or short for pages), the SHA-256 in metadata.
        let page = try server.aws(["s3api", "head-object", "--bucket", "photos", "--key", "site/index.html"])
        #expect(page["ContentType"] as? String == "text/html; charset=utf-8")
        #expect(page["CacheControl"] as? String == LocalSite.pageCacheControl)
        let sha = try #require((page["Metadata"] as? [String: String])?["sha256"])
        #expect(sha == (try LocalSite.scan(site.output).first { $0.key == "index.html" }?.sha256))
        let css = try #require(local.keys.first { $0.hasPrefix("static/") && $0.hasSuffix(".css") })
        let style = try server.aws(["s3api", "head-object", "--bucket", "photos", "--key", "site/" + css])
        #expect(style["CacheControl"] as? String == "public, max-age=31536000, immutable")
        #expect(style["ContentType"] as? String == "text/css; charset=utf-8")
        let image = try #require(local.keys.first { $0.hasSuffix(".jpg") })
        let photo = try server.aws(["s3api", "head-object", "--bucket", "photos", "--key", "site/" + image])
        #expect(photo["ContentType"] as? String == "image/jpeg")
        #expect(photo["CacheControl"] == nil)

        let second = try await server.deploy(site, prefix: "site/")
        #expect(second.uploaded == 0 && second.deleted == 0 && second.plan.unchanged == local.count)
        #expect(try server.objects("photos", prefix: "site/") == remote)
    }

    @Test func aChangedTitleUploadsExactlyTheChangedPages() async throws {
        let server = try await MotoServer(buckets: ["photos"])
        defer { server.stop() }
        let site = try await server.deployedSite(Self.three, prefix: "")
        let before = try DeployFixtures.digests(site.output)

        var photos = Self.three
        photos[1]["title"] = "Two, renamed"
        try site.writeManifest(photos)
        _ = try await site.build()
        let after = try DeployFixtures.digests(site.output)
        let changed = Set(after.keys.filter { before[$0] != after[$0] })
        #expect(!changed.isEmpty && changed.allSatisfy(LocalSite.isPage))

        let report = try await server.deploy(site, prefix: "")
        #expect(Set(report.plan.uploads.map(\.key)) == changed)
        #expect(report.uploaded == changed.count && report.deleted == 0)
        #expect(try server.objects("photos") == after)
    }

    @Test func aRemovedPhotoIsDeletedLast() async throws {
        let server = try await MotoServer(buckets: ["photos"])
        defer { server.stop() }
        let site = try await server.deployedSite(Self.three, prefix: "gallery/")
        let before = try DeployFixtures.digests(site.output)
        try site.writeManifest(Array(Self.three.dropLast()))
        _ = try await site.build()
        let after = try DeployFixtures.digests(site.output)
        let gone = Set(before.keys).subtracting(after.keys)
        #expect(
            gone.contains { $0.hasPrefix("photos/three/") && $0.hasSuffix(".jpg") }
                && gone.contains("photos/three/index.html"))

        let lines = DeployFixtures.Lines()
        let report = try await server.deploy(site, prefix: "gallery/", lines: lines)
        #expect(report.deleted == gone.count)
        let deletions = lines.all.filter { $0.hasPrefix("- ") }
        #expect(Set(deletions.map { String($0.dropFirst(2)) }) == gone)
        #expect(lines.all.suffix(deletions.count) == deletions[...], "deletions come after every upload")
        let firstImage = try #require(deletions.firstIndex { !LocalSite.isPage(String($0.dropFirst(2))) })
        #expect(
            deletions[firstImage...].allSatisfy { !LocalSite.isPage(String($0.dropFirst(2))) },
            "pages go before their images")
        #expect(
            try server.objects("photos", prefix: "gallery/")
                == Dictionary(uniqueKeysWithValues: after.map { ("gallery/" + $0.key, $0.value) }))
    }

    @Test func aWrongKeyFailsClearlyAndChangesNothing() async throws {
        let server = try await MotoServer(buckets: ["photos"])
        defer { server.stop() }
        let site = try await server.deployedSite(Self.three, prefix: "")
        let online = try server.objects("photos")
        try site.writeManifest(Array(Self.three.dropLast()))
        _ = try await site.build()

        // moto really checks signatures: the AWS CLI with a wrong secret is refused too.
        var wrong = server.keys
        wrong.secretAccessKey = "wrong-secret-" + String(wrong.secretAccessKey.reversed())
        let cli = server.awsRun(["s3api", "list-objects-v2", "--bucket", "photos"], keys: wrong)
        #expect(cli.status != 0 && cli.errors.contains("SignatureDoesNotMatch"))

        let secrets = Credentials(secrets: [wrong.accessKeyID, wrong.secretAccessKey])
        for keys in [wrong, SigV4.Keys(accessKeyID: "AKIAUNKNOWNKEY000000", secretAccessKey: wrong.secretAccessKey)] {
            let deployer = DeployFixtures.deployer(
                site, to: try server.target(bucket: "photos", prefix: "", keys: keys),
                redact: { secrets.redact($0) })
            let error = try await #require(throws: DeployError.self) { try await deployer.deploy() }
            #expect(error.kind == .credentials, "\(error)")
            // The words a person reads: the variables to check and the store's code, and never a secret.
            #expect(error.description.contains("AWS_SECRET_ACCESS_KEY"))
            #expect(
                error.description.contains("SignatureDoesNotMatch") || error.description.contains("InvalidAccessKeyId"))
            #expect(!error.description.contains(keys.secretAccessKey) && !error.description.contains(keys.accessKeyID))
        }
        #expect(try server.objects("photos") == online)
    }

    @Test func aFailingUploadStopsBeforeAnyPageOrDeletion() async throws {
        let server = try await MotoServer(buckets: ["photos"])
        defer { server.stop() }
        let site = try await server.deployedSite(Self.three, prefix: "")
        let v1 = try server.objects("photos")

        // v2: photo one removed, four and five added, two renamed. The store refuses four's files,
        // which come after five's: halfway through the assets (a real 403 from moto's policy check).
        var photos = Array(IncrementalFixtures.five.dropFirst())
        photos[0]["title"] = "Two, renamed"
        try site.writeManifest(photos)
        _ = try await site.build()
        let v2 = try DeployFixtures.digests(site.output)
        let denied = try server.createUser(
            "limited",
            policy: """
                {"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"},
                {"Effect":"Deny","Action":"s3:PutObject","Resource":"arn:aws:s3:::photos/photos/four/*"}]}
                """)
        let lines = DeployFixtures.Lines()
        let failing = DeployFixtures.deployer(
            site, to: try server.target(bucket: "photos", prefix: "", keys: denied), lines: lines)
        let error = try await #require(throws: DeployError.self) { try await failing.deploy() }
        #expect(error.kind == .stopped, "\(error)")
        // Only the words say which step stopped and what is online now, as the person deploying reads it.
        #expect(error.description.contains("AccessDenied") && error.description.contains("stopped in step assets"))
        #expect(lines.all.contains { $0.hasPrefix("+ photos/five/") }, "some assets went up before the refusal")
        #expect(!lines.all.contains { LocalSite.isPage(String($0.dropFirst(2))) || $0.hasPrefix("- ") })

        // The old site is whole: every v1 object is still there with its v1 bytes; only new assets were added.
        let mixed = try server.objects("photos")
        #expect(v1.allSatisfy { mixed[$0.key] == $0.value })
        #expect(Set(mixed.keys).subtracting(v1.keys).allSatisfy { !LocalSite.isPage($0) && v2[$0] == mixed[$0] })

        let retry = try await server.deploy(site, prefix: "")
        #expect(retry.deleted > 0)
        #expect(try server.objects("photos") == v2)
    }

    @Test func theCommandLineTakesKeysFromTheEnvironmentAndNeverPrintsThem() async throws {
        let server = try await MotoServer(buckets: ["photos"])
        defer { server.stop() }
        let site = try await DeployFixtures.site(photos: Array(Self.three.prefix(1)))
        try site.updateConfig(["deploy": ["target": "s3://photos/cli", "endpoint": server.endpoint, "pathStyle": true]])
        let cli = try IncrementalFixtures.cli().path
        let keys = ["AWS_ACCESS_KEY_ID": server.keys.accessKeyID, "AWS_SECRET_ACCESS_KEY": server.keys.secretAccessKey]

        let deployed = BrowserTools.run([cli, "deploy", "--config", site.configURL.path], environment: keys)
        let output = String(decoding: deployed.output, as: UTF8.self)
        #expect(deployed.status == 0, "\(deployed.errors)")
        let count = try DeployFixtures.digests(site.output).count
        #expect(output.contains("deployed s3://photos/cli/: \(count) uploaded ("), "\(output)")
        #expect(try server.objects("photos", prefix: "cli/").count == count)

        var wrong = keys
        wrong["AWS_SECRET_ACCESS_KEY"] = "not-the-secret-\(UUID().uuidString)"
        let refused = BrowserTools.run([cli, "deploy", "--config", site.configURL.path], environment: wrong)
        #expect(refused.status == 1)
        #expect(
            refused.errors.contains("SignatureDoesNotMatch") && refused.errors.contains("AWS_SECRET_ACCESS_KEY"),
            "\(refused.errors)")
        let printed = refused.errors + String(decoding: refused.output, as: UTF8.self)
        #expect(!printed.contains(wrong["AWS_SECRET_ACCESS_KEY"]!) && !printed.contains(server.keys.accessKeyID))
        #expect(try server.objects("photos", prefix: "cli/").count == count)
    }
}
