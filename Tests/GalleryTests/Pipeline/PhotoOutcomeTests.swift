import Foundation
import GalleryConfig
import GalleryFetch
import GalleryImaging
import GalleryModel
import GalleryPipeline
import GalleryStore
import Testing

/// A photo's way from its source to its staged files, followed through return values: what
/// publishing it learnt (header facts, placeholder, blob records) comes back in its outcome, and
/// the build state knows none of it until the images step takes the outcome in.
@Suite struct PhotoOutcomeTests {
    struct Setup {
        let state: BuildState
        let database: StateDatabase
        let publisher: PhotoPublisher
        let folder: URL
        /// Shut down by `run`: a client dropped without it traps in debug builds (AsyncHTTPClient's deinit check).
        let transport = HTTPTransport(settings: NetworkSettings(timeoutSeconds: 5))

        init(folder: URL) throws {
            self.folder = folder
            database = try StateDatabase.open(folder: folder.appendingPathComponent("state"))
            state = BuildState(
                snapshot: StateSnapshot(), blobs: (DigestTable(), DigestTable()),
                cache: folder.appendingPathComponent("cache"),
                reuse: true, database: database)
            let downloader = Downloader(transport: transport, cacheFolder: nil)
            publisher = PhotoPublisher(
                fetcher: OriginalFetcher(downloader: downloader, maxBytes: 1 << 26),
                processor: ImageProcessor(settings: try ImageSettings.defaults()), writer: nil,
                publishOriginals: .stripped, state: state)
        }

        /// Runs `body` with a setup in a new temporary folder, then always shuts its client down.
        static func run(_ body: (Setup) async throws -> Void) async throws {
            let setup = try Setup(folder: try Fixtures.temporaryFolder())
            do {
                try await body(setup)
            } catch {
                await setup.transport.shutdown()
                throw error
            }
            await setup.transport.shutdown()
        }
    }

    @Test func whatAPhotoLearntComesBackInItsOutcomeAndReachesTheStateOnlyThroughIt() async throws {
        try await Setup.run { setup in
            let photo = Photo(id: "p1", image: .file(Fixtures.url("images/photo-1.jpg")))
            let (_, published) = try await setup.publisher.attempt(
                photo, position: 0, cpu: WorkBudget(jobs: 1, pixels: 1 << 26), trustPrior: true)

            let learnt = published.learnt
            let facts = try #require(learnt.facts)
            #expect(facts.hash == published.row.contentHash && facts.value.format == .jpeg)
            let placeholder = try #require(learnt.placeholder)
            #expect(
                placeholder.key == published.row.thumbnailKey
                    && placeholder.value.dataURI.hasPrefix("data:image/jpeg;base64,"))
            // Every file the photo made, derivatives and published original, with its record.
            #expect(
                Set(learnt.blobs.map(\.key)) == Set(published.row.blobKeys)
                    && learnt.blobs.count == published.row.blobKeys.count)
            #expect(learnt.blobs.allSatisfy { $0.kind == "images" && $0.size > 0 })

            // Nothing went to the state on the side: it learns the facts and placeholder when the outcome is taken in.
            #expect(setup.state.facts(facts.hash) == nil && setup.state.placeholder(placeholder.key) == nil)
            #expect(setup.state.learn(learnt) == false)
            #expect(
                setup.state.facts(facts.hash)?.value == facts.value
                    && setup.state.placeholder(placeholder.key)?.value == placeholder.value)
            await setup.state.flush()
            #expect(try setup.database.facts(facts.hash) == facts.value)
            #expect(try setup.database.placeholderURI(placeholder.key) == placeholder.value.dataURI)
        }
    }

    /// A second photo with the same bytes, published after the first one's outcome was taken in,
    /// learns nothing: its facts, placeholder and files are the first one's, and their records are
    /// pending in the state already. Until then it carries the blob records too, so they reach the
    /// state even if the photo that made them fails afterwards.
    @Test func aPhotoSharingAnotherOnesFilesCarriesTheirRecordsUntilTheStateHasThem() async throws {
        try await Setup.run { setup in
            let image = ImageLocation.file(Fixtures.url("images/photo-2.jpg"))
            let budget = WorkBudget(jobs: 1, pixels: 1 << 26)
            let (_, first) = try await setup.publisher.attempt(
                Photo(id: "a", image: image), position: 0, cpu: budget, trustPrior: true)
            let (_, beforeMerge) = try await setup.publisher.attempt(
                Photo(id: "b", image: image), position: 1, cpu: budget, trustPrior: true)
            #expect(first.made > 0 && beforeMerge.made == 0)
            #expect(Set(beforeMerge.learnt.blobs.map(\.key)) == Set(first.learnt.blobs.map(\.key)))
            #expect(beforeMerge.learnt.placeholder?.value == first.learnt.placeholder?.value)

            _ = setup.state.learn(first.learnt)
            setup.state.images.recorded(first.learnt.blobs)
            let (_, afterMerge) = try await setup.publisher.attempt(
                Photo(id: "c", image: image), position: 2, cpu: budget, trustPrior: true)
            #expect(afterMerge.made == 0 && afterMerge.row.blobKeys == first.row.blobKeys)
            #expect(
                afterMerge.learnt.facts == nil && afterMerge.learnt.placeholder == nil
                    && afterMerge.learnt.blobs.isEmpty)
        }
    }
}
