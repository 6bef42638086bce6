import Foundation
import GalleryConfig
import GalleryModel
import GalleryOutput
import GalleryServe
import Testing

/// Deploying to a folder (`file://`), and the parts of a deploy that need no store: the plan, the
/// `_headers` rules, the S3 documents, the target addresses and the config's `deploy` block.
@Suite("Deploy")
struct DeployTests {
    @Test func aFolderTargetMirrorsTheSiteAndOnlyChangesWhatChanged() async throws {
        let site = try await DeployFixtures.site(photos: Array(IncrementalFixtures.five.prefix(3)))
        let folder = try Fixtures.temporaryFolder().appendingPathComponent("www/photos")
        let first = try await DeployFixtures.deployer(site, to: FolderTarget(folder: folder)).deploy()
        #expect(first.uploaded == first.plan.siteFiles && first.plan.siteFiles > 10)
        #expect(try FixtureSite.treeHash(of: folder) == site.treeHash())
        let again = try await DeployFixtures.deployer(site, to: FolderTarget(folder: folder)).deploy()
        #expect(again.uploaded == 0 && again.deleted == 0)

        try site.writeManifest(Array(IncrementalFixtures.five.prefix(2)))
        _ = try await site.build()
        let lines = DeployFixtures.Lines()
        let removed = try await DeployFixtures.deployer(site, to: FolderTarget(folder: folder), lines: lines).deploy()
        #expect(removed.deleted > 0 && lines.all.last?.hasPrefix("- ") == true)
        #expect(try FixtureSite.treeHash(of: folder) == site.treeHash())
        #expect(
            !FileManager.default.fileExists(atPath: folder.appendingPathComponent("photos/three").path),
            "emptied folders go too")
    }

    @Test func theCommandLineDeploysToAFolderAndRefusesBadTargets() async throws {
        let site = try await DeployFixtures.site(photos: Array(IncrementalFixtures.five.prefix(2)))
        let folder = try Fixtures.temporaryFolder().appendingPathComponent("mirror")
        let cli = try IncrementalFixtures.cli().path
        let target = "file://" + folder.path

        let dry = BrowserTools.run([cli, "deploy", target, "--config", site.configURL.path, "--dry-run"])
        let dryText = String(decoding: dry.output, as: UTF8.self)
        #expect(dry.status == 0)
        #expect(dryText.contains("+ index.html ("))
        #expect(dryText.contains("planned file://\(folder.path): would upload"))
        #expect(!FileManager.default.fileExists(atPath: folder.path))

        let real = BrowserTools.run([cli, "deploy", target, "--config", site.configURL.path])
        #expect(real.status == 0, "\(real.errors)")
        #expect(String(decoding: real.output, as: UTF8.self).contains(" deleted, 0 unchanged"))
        #expect(try FixtureSite.treeHash(of: folder) == site.treeHash())

        let bad = BrowserTools.run([cli, "deploy", "ftp://example.com/x", "--config", site.configURL.path])
        #expect(bad.status == 2 && bad.errors.contains("unknown scheme \"ftp\""))
        let none = BrowserTools.run([cli, "deploy", "--config", site.configURL.path])
        #expect(none.status == 2 && none.errors.contains("no target"))
        let keyless = BrowserTools.run(
            [cli, "deploy", "s3://bucket/site", "--config", site.configURL.path],
            environment: ["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": ""])
        #expect(keyless.status == 2 && keyless.errors.contains("AWS_ACCESS_KEY_ID"))
    }

    @Test func thePlanSendsAssetsThenPagesThenDeletesPagesBeforeImages() {
        func file(_ key: String, _ digest: String) -> LocalFile {
            LocalFile(
                key: key, url: URL(fileURLWithPath: "/site/" + key), size: 3, md5: digest, sha256: digest + digest,
                contentType: LocalSite.contentType(key), cacheControl: nil, isPage: LocalSite.isPage(key))
        }
        let site = [
            file("index.html", "a"), file("feed.xml", "b"), file("photos/x/80x60.jpg", "c"),
            file("search-index.js", "d"),
            file("search/0123456789/d0.js", "e"), file("photos/x/index.html", "f"), file("same.jpg", "g"),
            file("sha.png", "h")
        ]
        let remote = [
            RemoteObject(key: "index.html", size: 3, md5: "old"), RemoteObject(key: "same.jpg", size: 3, md5: "g"),
            RemoteObject(key: "sha.png", size: 3, sha256: "hh"), RemoteObject(key: "photos/y/80x60.jpg", size: 3),
            RemoteObject(key: "photos/y/index.html", size: 3)
        ]
        let plan = DeployPlan(site: site, remote: remote)
        #expect(plan.assets.map(\.key) == ["photos/x/80x60.jpg", "search/0123456789/d0.js"])
        #expect(plan.pages.map(\.key) == ["feed.xml", "search-index.js", "index.html", "photos/x/index.html"])
        #expect(plan.deletions == ["photos/y/index.html", "photos/y/80x60.jpg"])
        #expect(plan.unchanged == 2 && plan.replaced == ["index.html"])
        #expect(plan.lines.first == "+ photos/x/80x60.jpg (0.0 KB)" && plan.lines.contains("~ index.html (0.0 KB)"))
        #expect(DeployPlan(site: site, remote: remote, delete: false).deletions.isEmpty)
    }

    @Test func cacheControlComesFromTheBuildsHeadersFile() async throws {
        let site = try await DeployFixtures.site(photos: Array(IncrementalFixtures.five.prefix(1)))
        let files = try LocalSite.scan(site.output)
        let css = try #require(files.first { $0.key.hasPrefix("static/") && $0.key.hasSuffix(".css") })
        #expect(css.cacheControl == "public, max-age=31536000, immutable" && !css.isPage)
        #expect(files.first { $0.key == "index.html" }?.cacheControl == LocalSite.pageCacheControl)
        #expect(files.first { $0.key.hasSuffix(".jpg") }?.cacheControl == nil)
        #expect(files.first { $0.key == "feed.xml" }?.contentType == "application/xml")

        let rules = HeadersFile(
            "# comment\n/*\n  X-Frame-Options: DENY\n/photos/:id/*\n  Cache-Control: max-age=5\n/a*.js\n  cache-control: x\n"
        )
        #expect(rules.value("X-Frame-Options", for: "any/thing.html") == "DENY")
        #expect(rules.value("Cache-Control", for: "photos/kite/80x60.jpg") == "max-age=5")
        #expect(rules.value("Cache-Control", for: "photos/80x60.jpg") == nil)
        #expect(
            rules.value("Cache-Control", for: "app.123.js") == "x" && rules.value("Cache-Control", for: "b.js") == nil)
    }

    @Test func s3DocumentsAreReadWithXMLParser() throws {
        let page = try #require(
            S3XML.listPage(
                Data(
                    """
                    <?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
                    <Name>b</Name><IsTruncated>true</IsTruncated><NextContinuationToken>t&amp;1</NextContinuationToken>
                    <Contents><Key>a &amp; b.html</Key><ETag>&quot;0cc175b9c0f1b6a831c399e269772661&quot;</ETag><Size>1</Size>
                    <Owner><ID>x</ID></Owner></Contents><Contents><Key>c.jpg</Key><ETag>"abc-2"</ETag><Size>20</Size></Contents>
                    </ListBucketResult>
                    """.utf8)))
        #expect(page.continuationToken == "t&1")
        #expect(page.objects.map(\.key) == ["a & b.html", "c.jpg"] && page.objects.map(\.size) == [1, 20])
        #expect(page.objects[0].etag == "\"0cc175b9c0f1b6a831c399e269772661\"")
        #expect(
            S3XML.error(Data("<Error><Code>NoSuchBucket</Code><Message>gone</Message></Error>".utf8))
                == S3XML.ErrorBody(code: "NoSuchBucket", message: "gone"))
        let failures = try #require(
            S3XML.deleteFailures(
                Data(
                    "<DeleteResult><Error><Key>k</Key><Code>AccessDenied</Code><Message>no</Message></Error></DeleteResult>"
                        .utf8)))
        #expect(failures.map(\.key) == ["k"] && failures.first?.error.code == "AccessDenied")
        let request = String(decoding: S3XML.deleteRequest(keys: ["a<b>&'\".html"]), as: UTF8.self)
        #expect(
            request.contains("<Key>a&lt;b&gt;&amp;&apos;&quot;.html</Key>") && request.contains("<Quiet>true</Quiet>"))
        #expect(S3XML.listPage(Data("<Error/>".utf8)) == nil)
    }

    @Test func targetsAreParsedAndAddressedInBothStyles() async throws {
        let destination = try DeployDestination.parse(
            "s3://my-photos/site/2024/", endpoint: "http://127.0.0.1:9000", region: "eu-west-1")
        guard case .s3(var location) = destination else {
            Issue.record("not s3: \(destination)")
            return
        }
        #expect(location.prefix == "site/2024/" && location.region == "eu-west-1")
        let keys = SigV4.Keys(accessKeyID: "id", secretAccessKey: "secret")
        let virtual = S3Target(location: location, keys: keys, network: NetworkSettings())
        #expect(
            virtual.address(key: "a b.html") == (
                "http://my-photos.127.0.0.1:9000", "my-photos.127.0.0.1:9000", "/site/2024/a b.html"
            ))
        location.pathStyle = true
        let path = S3Target(location: location, keys: keys, network: NetworkSettings())
        #expect(path.address(key: nil) == ("http://127.0.0.1:9000", "127.0.0.1:9000", "/my-photos"))
        guard case .s3(let aws) = try DeployDestination.parse("s3://bucket") else {
            Issue.record("not s3")
            return
        }
        #expect(aws.endpoint.absoluteString == "https://s3.us-east-1.amazonaws.com" && aws.prefix.isEmpty)
        #expect(try DeployDestination.parse("file:///srv/www/") == .folder(URL(fileURLWithPath: "/srv/www")))
        #expect(throws: DeployDestination.Problem.self) { try DeployDestination.parse("s3://Bad_Bucket/x") }
        #expect(throws: DeployDestination.Problem.self) { try DeployDestination.parse("file://relative/path") }
        #expect(throws: DeployDestination.Problem.self) {
            try DeployDestination.parse("s3://bucket", endpoint: "ftp://x")
        }
        await virtual.close()
        await path.close()
    }

    @Test func theConfigsDeployBlockIsCheckedKeyByKey() throws {
        let file = URL(fileURLWithPath: "/site/site-config.json")
        func load(_ deploy: String) throws -> SiteConfig {
            try SiteConfig.parse(
                Data(#"{"source": {"type": "folder", "path": "photos"}, "deploy": \#(deploy)}"#.utf8), file: file,
                environment: ["BUCKET": "photos"])
        }
        let config = try load(
            #"{"target": "s3://${BUCKET}/site", "endpoint": "https://s3.example.com", "pathStyle": true}"#)
        #expect(
            config.deploy
                == DeploySettings(target: "s3://photos/site", endpoint: "https://s3.example.com", pathStyle: true))
        guard case .s3(let location) = try config.deploy.resolve(over: DeploySettings(region: "eu-north-1")) else {
            Issue.record("not s3")
            return
        }
        #expect(location.region == "eu-north-1" && location.pathStyle && location.endpoint.host == "s3.example.com")
        let cases: [(String, String, String)] = [
            (#"{"target": "s3:/x"}"#, "deploy.target", "does not name a valid bucket"),
            (#"{"endpoint": "s3.example.com"}"#, "deploy.endpoint", "is not an endpoint"),
            (#"{"region": "EU West"}"#, "deploy.region", "is not a region name"),
            (#"{"bucket": "x"}"#, "deploy.bucket", "unknown key"),
            (#"{"pathStyle": "yes"}"#, "deploy.pathStyle", "expected true or false")
        ]
        for (block, key, problem) in cases {
            let error = try #require(throws: ConfigError.self) { try load(block) }
            #expect(error.key == key && error.problem.contains(problem), "\(error)")
        }
    }

    @Test func slowDownIsRetriedAndAccessDeniedIsNot() async throws {
        let listing = Data(
            (#"<ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key>site/a.html</Key>"#
                + #"<ETag>"0cc175b9c0f1b6a831c399e269772661"</ETag><Size>1</Size></Contents></ListBucketResult>"#).utf8)
        let slowDown = Data(
            #"<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>"#.utf8)
        let denied = Data(#"<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>"#.utf8)
        @Sendable func target(_ url: URL, bucket: String) -> S3Target {
            S3Target(
                location: S3Location(
                    bucket: bucket, prefix: "site/", endpoint: url, region: "us-east-1", pathStyle: true),
                keys: SigV4.Keys(accessKeyID: "id", secretAccessKey: "secret"), network: NetworkSettings(),
                retry: MotoServer.quickRetries)
        }
        let answers = Answers()
        try await FixtureServer.with({ request, _ in
            if request.path == "/denied" { return .data(status: 403, contentType: "application/xml", body: denied) }
            return await answers.next() < 3
                ? .data(status: 503, contentType: "application/xml", headers: ["Retry-After": "0"], body: slowDown)
                : .data(status: 200, contentType: "application/xml", body: listing)
        }) { url, log in
            let busy = target(url, bucket: "busy")
            #expect(
                try await busy.list() == [RemoteObject(key: "a.html", size: 1, md5: "0cc175b9c0f1b6a831c399e269772661")]
            )
            #expect(await log.count { $0.path == "/busy" } == 3, "two SlowDown answers, then the listing")
            #expect(
                await log.count { $0.headers["authorization"]?.hasPrefix("AWS4-HMAC-SHA256 Credential=id/") == true }
                    == 3)
            let refused = target(url, bucket: "denied")
            let error = try await #require(throws: DeployError.self) { try await refused.list() }
            #expect(error.kind == .request, "\(error)")
            // The words carry the store's own code and message, for a person to look up.
            #expect(error.description.contains("AccessDenied: Access Denied"))
            #expect(await log.count { $0.path == "/denied" } == 1, "a 403 is not retried")
            await busy.close()
            await refused.close()
        }
    }
}

/// Counts requests for a fixture server's handler.
private actor Answers {
    private var count = 0
    func next() -> Int {
        count += 1
        return count
    }
}
