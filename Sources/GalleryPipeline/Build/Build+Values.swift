import Foundation
import GalleryFetch
import GalleryModel
import GalleryOutput
import GalleryProviders
import GalleryRender
import GalleryStore

/// What the steps of a full build make, each handed to the steps after it (`Build.runSteps`).
///
/// A step is a function that takes the value the step before it returned (and what else earlier
/// steps made) and returns its own, so the steps cannot run out of order or be left out: the next
/// one would have nothing to take. None of these values holds an optional that a step fills in.
/// A step that only acts returns a value that says what it did (`Complete`, `Settled`, `Saved`).
extension Build {
    /// `output` (claimed): the output folder is missing, empty or galleryssg's.
    struct Claimed {
        /// Where a taken-over output's files go (`--force`); made only when something is moved.
        let aside: URL
    }

    /// `theme`: the theme's static files and the renderer of every page.
    struct Themed {
        let aside: URL
        let assets: Assets
        let renderer: SiteRenderer
    }

    /// `state` (opened): where the photos come from, and the state database, with nothing pending.
    struct Opened {
        let themed: Themed
        let provider: any PhotoProvider
        let database: StateDatabase
    }

    /// `manifest`: the provider's photo list, hidden albums' photos under their token ids.
    struct Listing {
        let opened: Opened
        /// Its photos go to a file at `images` (listed), which leaves them out.
        var manifest: Manifest
        let hidden: HiddenAlbums
    }

    /// `images` (listed): the photos in their file (`PhotoList`), and what the pages need of the manifest.
    struct Listed {
        let opened: Opened
        let photos: PhotoList
        let albums: [String: AlbumInfo]
        let hidden: HiddenAlbums
    }

    /// `state` (last build): what the last build left.
    struct Loaded {
        let listed: Listed
        /// Its blob records go to the caches at `state` (caches), which leaves them out.
        var snapshot: StateSnapshot
    }

    /// `state` (caches): what every step from `images` on works with, like Publish's
    /// `PublishingContext`: the theme, the state, the staging folder and the caches.
    struct Ready {
        let aside: URL
        let assets: Assets
        let renderer: SiteRenderer
        let database: StateDatabase
        let photos: PhotoList
        let albums: [String: AlbumInfo]
        let hidden: HiddenAlbums
        /// The staging folder's; aborted if a step after `output` (staging) fails.
        let writer: StagedWriter
        let state: BuildState
        /// The key of what the last build's pages were made from.
        let previousPagesKey: Digest?
    }

    /// `images`: the published photos, and the fetcher that got their originals.
    struct Imaged {
        /// Its items move into the plan at `pages` (planned); its published rows go once the state is saved.
        var outcome: PhotoPublisher.Outcome
        let fetcher: OriginalFetcher
    }

    /// What `seal` encrypts: the protected albums' folders, the whole site under a site password,
    /// and the hidden albums' links, told once sealed under a site password.
    struct Sealing {
        let targets: [AlbumSealer.Target]
        let site: ProtectedSite?
        let hiddenLinks: [HiddenLink]

        /// Whether the `seal` step has anything to encrypt.
        var hasWork: Bool { !targets.isEmpty || site != nil }
    }

    /// `pages` (planned): the model of every page, from the published photos.
    struct Planned {
        let plan: SitePlan
        let sealing: Sealing
    }

    /// `downloads`: the plan with the album zips its album pages link.
    struct Zipped {
        let plan: SitePlan
        let sealing: Sealing
    }

    /// `pages`: every page staged; the plan is gone.
    struct Paged {
        let pages: PagePublisher.Outcome
        let sealing: Sealing
    }

    /// `static`: the staging folder holds the whole site, which `seal` may encrypt.
    struct Complete {
        let pages: PagePublisher.Outcome
        let sealing: Sealing
    }

    /// `publish` (settled): the earlier site's files this build drops are galleryssg's, or were moved aside.
    struct Settled {
        let pages: PagePublisher.Outcome
    }

    /// `state` (saved): the state holds this build; the staged site may be swapped in.
    struct Saved {}
}
