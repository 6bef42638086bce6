import Foundation
import GalleryConfig
import GalleryOutput
import Testing

/// Deploys through `FaultyProxy` (Tests/Deploy/faulty_s3_proxy.py) in front of moto's S3 server:
/// throttled, dropped, cut short, stalled and delayed requests, counted by the proxy itself; every
/// result is confirmed with the AWS CLI straight against moto.
@Suite(
    "Deploy through a faulty network (moto behind a fault-injecting proxy)", .serialized,
    .enabled(
        if: MotoServer.available && MotoServer.executable("python3") != nil,
        "moto_server, aws and python3 are not on PATH; pip install \"moto[server]\" awscli (.ci/run does)"))
struct DeployFaultTests {
    /// About S3's worst day: 15 % `SlowDown`, 5 % dropped connections, and more besides.
    static let badNetwork = FaultyProxy.Faults(
        slowdown: 0.15, drop: 0.05, lost: 0.03, cut: 0.04, stall: 0.01, delay: 0.05)
    /// Timeouts of a second, so a stalled request fails fast; 3 requests at once, as the deployer sends.
    static let network = NetworkSettings(timeoutSeconds: 1, connectionsPerHost: 3)

    @Test func aDeployThroughABadNetworkArrivesWholeAndCountsItsRetries() async throws {
        let server = try await MotoServer(buckets: ["photos"])
        defer { server.stop() }
        let proxy = try await FaultyProxy(to: server, seed: 5, faults: Self.badNetwork)
        defer { proxy.stop() }
        let site = try await DeployFixtures.site(photos: DeployS3Tests.three)
        let local = try DeployFixtures.digests(site.output)
        let target = try server.target(bucket: "photos", prefix: "site/", via: proxy.endpoint, network: Self.network)

        let report = try await DeployFixtures.deployer(site, to: target).deploy()
        let counts = try proxy.counts()
        #expect(Double(counts.failed) >= 0.2 * Double(counts.requests), "\(counts)")
        #expect(counts.slowdown > 0 && counts.drop > 0 && counts.lost > 0 && counts.cut > 0 && counts.stall > 0)
        #expect(counts.requests > local.count && counts.refused == 0, "\(counts)")
        // Every failure the proxy made cost one retry, and nothing else failed.
        #expect(report.traffic.retries == counts.failed && report.traffic.throttles == counts.slowdown, "\(counts)")
        #expect(report.uploaded == local.count && report.deleted == 0)
        #expect(
            try server.objects("photos", prefix: "site/")
                == Dictionary(uniqueKeysWithValues: local.map { ("site/" + $0.key, $0.value) }))
        // SlowDown halved the requests at once (from 3), and the summary says what it took.
        let lowest = try #require(report.traffic.lowestConcurrency)
        #expect(lowest < 3)
        let lowestText = lowest == 1 ? "1 request" : "\(lowest) requests"
        #expect(
            report.summary.hasSuffix(
                "; \(counts.failed) retries (\(counts.slowdown) throttled, down to \(lowestText) at a time)"),
            "\(report.summary)")

        // Through the same network, a second deploy finds everything in place.
        let again = try await DeployFixtures.deployer(
            site, to: try server.target(bucket: "photos", prefix: "site/", via: proxy.endpoint, network: Self.network)
        ).deploy()
        #expect(again.uploaded == 0 && again.plan.unchanged == local.count, "\(again.summary)")
    }

    @Test func aDeployCutOffMidwayStopsSafelyAndTheNextOneFinishesExactly() async throws {
        let server = try await MotoServer(buckets: ["photos"])
        defer { server.stop() }
        let site = try await server.deployedSite(DeployS3Tests.three, prefix: "")
        let v1 = try server.objects("photos")
        var photos = Array(IncrementalFixtures.five.dropFirst())
        photos[0]["title"] = "Two, renamed"
        try site.writeManifest(photos)
        _ = try await site.build()
        let v2 = try DeployFixtures.digests(site.output)
        let planner = DeployFixtures.deployer(site, to: try server.target(bucket: "photos", prefix: ""))
        let plan = try await planner.plan()
        await planner.target.close()
        let uploads = plan.uploads.count
        #expect(plan.assets.count > 6)

        // The store goes away halfway through the assets (after one listing request and some
        // retries): every request after that is dropped. Faults before it are only ones the store
        // never saw, so what it holds is what the deploy reported.
        let cutOff = FaultyProxy.Faults(slowdown: 0.15, drop: 0.05, refuseAfter: plan.assets.count / 2)
        let proxy = try await FaultyProxy(to: server, seed: 7, faults: cutOff)
        let lines = DeployFixtures.Lines()
        let failing = DeployFixtures.deployer(
            site,
            to: try server.target(
                bucket: "photos", prefix: "", listPageSize: 1000, via: proxy.endpoint, network: Self.network),
            lines: lines)
        let error = try await #require(throws: DeployError.self) { try await failing.deploy() }
        proxy.stop()
        #expect(error.kind == .stopped, "\(error)")
        #expect(error.description.contains("gave up after 8 attempts"), "\(error)")
        #expect(error.description.contains("stopped in step assets"), "\(error)")
        #expect(try proxy.counts().refused > 0)
        let sent = Set(lines.all.map { String($0.dropFirst(2)) })
        #expect(!sent.isEmpty && !sent.contains(where: LocalSite.isPage) && !lines.all.contains { $0.hasPrefix("- ") })
        let mixed = try server.objects("photos")
        #expect(
            v1.allSatisfy { mixed[$0.key] == $0.value || sent.contains($0.key) }, "no page replaced, nothing deleted")
        #expect(Set(mixed.keys).subtracting(v1.keys).isSubset(of: sent))

        // Run again through a bad network: only what did not arrive is sent, and the bucket is v2 exactly.
        let recovered = try await FaultyProxy(to: server, seed: 8, faults: Self.badNetwork)
        defer { recovered.stop() }
        let lines2 = DeployFixtures.Lines()
        let report = try await DeployFixtures.deployer(
            site, to: try server.target(bucket: "photos", prefix: "", via: recovered.endpoint, network: Self.network),
            lines: lines2
        ).deploy()
        let resent = Set(lines2.all.filter { !$0.hasPrefix("- ") }.map { String($0.dropFirst(2)) })
        #expect(resent.isDisjoint(with: sent) && resent.count + sent.count == uploads)
        let failures = try recovered.counts().failed
        #expect(report.deleted > 0 && report.traffic.retries == failures)
        #expect(try server.objects("photos") == v2)
    }

    @Test func theRetryBudgetStopsADeployToAStoreThatKeepsFailing() async throws {
        let server = try await MotoServer(buckets: ["photos"])
        defer { server.stop() }
        let proxy = try await FaultyProxy(to: server, seed: 1, faults: FaultyProxy.Faults(refuseAfter: 0))
        defer { proxy.stop() }
        let site = try await DeployFixtures.site(photos: Array(DeployS3Tests.three.prefix(1)))
        // A budget of 22 tokens pays for four retries at 5 each, whatever the attempts per request allow.
        var retry = MotoServer.quickRetries
        retry.budget = 22
        let target = try server.target(
            bucket: "photos", prefix: "", via: proxy.endpoint, network: Self.network, retry: retry)
        let error = try await #require(throws: DeployError.self) {
            try await DeployFixtures.deployer(site, to: target).deploy()
        }
        #expect(error.kind == .request, "the listing fails: \(error)")
        #expect(error.description.contains("retry budget is spent after 4 retries"), "\(error)")
        #expect(try proxy.counts().requests == 5, "the listing, then four retries")
        #expect(try server.objects("photos").isEmpty)
    }
}
