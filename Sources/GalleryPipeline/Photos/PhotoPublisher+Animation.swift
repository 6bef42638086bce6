import Foundation
import GalleryImaging
import GalleryKeys
import GalleryModel

/// Animated GIF and WebP: the still is the first frame, through the image path like any photo,
/// and the motion is a muted, looping clip (or the file itself, when small), published where a
/// Live Photo's motion is and played the same way (`AnimationMotion`).
extension PhotoPublisher {
    /// How the photo's animation is published; nil for any other photo.
    func animation(_ facts: OriginalFacts, layout: ImageLayout) -> AnimationMotion? {
        facts.isAnimation ? AnimationMotion.choose(facts, largest: layout.plan.largest) : nil
    }

    /// The motion file of an animation and its key: the file's bytes, and for a clip every setting
    /// that changes it (a kept file is the original's bytes, whatever the settings).
    func animationKey(_ photo: Photo, hash: Digest, facts: OriginalFacts, layout: ImageLayout) -> (
        path: String, key: Digest
    )? {
        guard let motion = animation(facts, layout: layout) else { return nil }
        var key = CacheKey("animation")
        key.add(VideoEncoder.animationVersion)
        key.add(hash)
        key.add(motion.fileExtension)
        if motion == .clip {
            let settings = videos.encoder.settings
            for value in [
                settings.maxHeight, settings.crf, settings.maxBitrate, settings.maxSeconds, settings.maxPixels
            ] {
                key.add(value)
            }
            let background = processor.settings.background
            key.add("\(background.red),\(background.green),\(background.blue)")
        }
        return (SiteLayout.motionFile(id: photo.id, fileExtension: motion.fileExtension), key.finish())
    }

    /// The planned motion file's path: a Live Photo's or motion photo's clip, or an animation's.
    ///
    /// The paths are compared as UTF-8 bytes: they are made from the same id by `SiteLayout`, and
    /// a motion file's extension is ASCII, so bytes and characters agree. `Substring.hasPrefix`
    /// compares characters, about 8,000 instructions a path, which made this a tenth of a no-op
    /// build's instructions (three calls a photo, two paths each).
    static func motionPath(_ plan: PhotoPlan) -> String {
        let clip = SiteLayout.motionFile(id: plan.photo.id)
        let prefix = clip.utf8.dropLast("mp4".utf8.count)
        return plan.keys.files.first { $0.path.utf8.starts(with: prefix) }?.path ?? clip
    }

    /// Makes an animation's motion file when the plan lacks it: the clip (in the encode queue), or
    /// the original's bytes when kept. One that cannot be made leaves the first frame, with a
    /// warning that says why; one cut at the caps is published with a warning that says what is left out.
    func renderAnimation(_ plan: inout PhotoPlan) async throws -> (
        made: Int, bytes: Int, seconds: [BuildStep: Double]
    ) {
        let path = Self.motionPath(plan)
        guard let missing = plan.missing.first(where: { $0.path == path }) else { return (0, 0, [:]) }
        let clock = ContinuousClock.now
        do {
            let data = try await originalBytes(of: plan.photo, &plan.original)
            guard path.hasSuffix(".mp4") else {
                _ = try state.images.put(data, key: missing.key)
                return (1, data.count, [.video: clock.secondsElapsed])
            }
            let scratch = try state.images.store.scratchPath(for: missing.key)
            let encoder = videos.encoder
            let (format, size) = (plan.facts.format, plan.facts.size)
            let background = processor.settings.background
            let timing = try await videos.queue.run {
                try await encoder.animationClip(data, format: format, size: size, background: background, to: scratch)
            }
            let bytes = try state.images.adopt(scratch, key: missing.key).record?.size ?? 0
            if let cut = encoder.animationCut(timing) {
                plan.warnings.append("animation shortened: its clip leaves out \(cut)")
            }
            return (1, bytes, [.video: clock.secondsElapsed])
        } catch let error as CancellationError {
            throw error
        } catch {
            plan.keys.files.removeAll { $0.path == path }
            plan.warnings.append(
                "animation not published, only its first frame: \(error)")
            return (0, 0, [:])
        }
    }
}
