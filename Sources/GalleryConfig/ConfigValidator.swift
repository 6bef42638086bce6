import Foundation
import GalleryModel

/// Checks a decoded config file, fills in defaults and resolves paths against the file's folder.
package struct ConfigValidator {
    package let file: URL
    /// Where `apiKeyEnv`-style keys are looked up (`${NAME}` references are replaced before this).
    package var environment: [String: String] = [:]
    package var name: String { file.path }
    private var base: URL { file.deletingLastPathComponent() }

    package func validate(_ raw: SiteConfigFile, variables: [String: String] = [:]) throws -> SiteConfig {
        typealias D = SiteConfig.Defaults
        guard let source = raw.source else {
            throw ConfigError(
                file: name, key: "source",
                "missing; add for example \"source\": {\"type\": \"folder\", \"path\": \"photos\"}")
        }
        let pageSize = try range(raw.pageSize ?? D.pageSize, "pageSize", 1...50)
        let images = raw.images
        let thumbnail = try range(images?.thumbnail ?? D.thumbnail, "images.thumbnail", 16...4096)
        let preview = try range(images?.preview ?? D.preview, "images.preview", 64...8192)
        let widths = try (images?.widths ?? D.widths).enumerated().map {
            try range($0.element, "images.widths[\($0.offset)]", 16...8192)
        }
        let network = raw.network
        let state = path(raw.state ?? D.state, "state")
        var config = SiteConfig(
            title: raw.title ?? D.title,
            description: raw.description ?? D.description,
            baseURL: try raw.baseURL.map(baseURL),
            output: path(raw.output ?? D.output, "output"),
            templates: path(raw.templates ?? D.templates, "templates"),
            stateDirectory: state,
            cacheDirectory: raw.cache.map { path($0, "cache") } ?? state.appendingPathComponent(D.cacheInState),
            pageSize: pageSize,
            source: try sourceConfig(source),
            images: ImageSettings(
                thumbnail: thumbnail,
                preview: preview,
                widths: Array(Set(widths)).sorted(),
                quality: try range(images?.quality ?? D.quality, "images.quality", 1...100),
                background: try color(images?.background ?? D.background, "images.background"),
                maxPixels: try range(images?.maxPixels ?? D.maxPixels, "images.maxPixels", 1...2_000_000_000),
                publishOriginals: try originalsPolicy(images?.publishOriginals),
                maxPixelsInFlight: try images?.maxPixelsInFlight.map {
                    try range($0, "images.maxPixelsInFlight", 1_000_000...2_000_000_000)
                },
                showLocation: images?.showLocation ?? D.showLocation,
                linearLight: images?.linearLight ?? D.linearLight,
                exifFields: try images?.exifFields.map(exifFields) ?? D.exifFields,
                webp: images?.webp ?? D.webp,
                sharpen: try fraction(images?.sharpen ?? D.sharpen, "images.sharpen"),
                gridSteps: images?.gridSteps ?? D.gridSteps,
                raw: try rawPolicy(images?.raw),
                avif: images?.avif ?? D.avif,
                hdr: images?.hdr ?? D.hdr
            ),
            network: NetworkSettings(
                allowHTTP: source.allowInsecureHTTP ?? D.allowInsecureHTTP,
                timeoutSeconds: try range(
                    network?.timeoutSeconds ?? D.timeoutSeconds, "network.timeoutSeconds", 1...3600),
                maxDownloadBytes: try range(
                    network?.maxDownloadBytes ?? D.maxDownloadBytes, "network.maxDownloadBytes",
                    1024...(1 << 40)),
                connectionsPerHost: try range(
                    network?.connectionsPerHost ?? D.connectionsPerHost,
                    "network.connectionsPerHost", 1...64),
                retries: try range(network?.retries ?? D.retries, "network.retries", 0...10)
            ),
            credentials: Credentials(
                secrets: [source.apiKey, source.consumerKey, source.applicationId, source.restApiKey].compactMap { $0 },
                variables: variables.filter { $0.key.hasPrefix("source.") }),
            configFile: file,
            sort: try sortOrder(raw.sort),
            viewer: ViewerSettings(slideshowSeconds: try slideshowSeconds(raw.viewer?.slideshowSeconds))
        )
        config.download = try downloadSetting(raw.download)
        config.password = try sitePassword(raw.password, raw.passwordEnv)
        if case .literal(let password)? = config.password { config.credentials.secrets.append(password) }
        if case .immich(let immich) = config.source {
            config.credentials.secrets.append(immich.apiKey)
            config.credentials.variables["source.apiKeyEnv"] = immich.apiKeyEnv
        }
        config.language = try language(raw.language)
        config.map = try mapSettings(raw.map)
        config.deploy = try deploySettings(raw.deploy)
        config.video = try videoSettings(raw.video)
        config.peopleAsTags = source.peopleAsTags ?? SiteConfig.Defaults.peopleAsTags
        return config
    }

    /// `taken`, `-taken`, `name`, `source`, `rating`…; the default when absent.
    private func sortOrder(_ value: String?) throws -> PhotoSort {
        guard let value else { return SiteConfig.Defaults.sort }
        guard let sort = PhotoSort(value) else {
            throw ConfigError(
                file: name, key: "sort",
                "\(JSONValue.string(value).quoted) is not a sort order "
                    + "(expected taken, name, source or rating, with a leading - for descending, such as \"-taken\")")
        }
        return sort
    }

    /// `album`, `photo` or `none` (`off`); `off` when absent.
    private func downloadSetting(_ value: String?) throws -> DownloadSetting {
        guard let value else { return .off }
        guard let setting = DownloadSetting(rawValue: value) else {
            throw ConfigError(
                file: name, key: "download",
                "\(JSONValue.string(value).quoted) is not a download setting "
                    + "(expected \(DownloadSetting.choices): a zip of each album plus a link per photo, "
                    + "a link per photo, or nothing)")
        }
        return setting
    }

    /// `password` or `passwordEnv`, not both; never empty.
    private func sitePassword(_ password: String?, _ variable: String?) throws -> SitePassword? {
        switch (password, variable) {
        case (nil, nil): return nil
        case (.some, .some):
            throw ConfigError(
                file: name, key: "password",
                "password and passwordEnv are both set; keep one (better: passwordEnv, "
                    + "the name of an environment variable holding the password, so it sits in no committed file)")
        case (let password?, nil):
            guard !password.isEmpty else {
                throw ConfigError(
                    file: name, key: "password",
                    "the site's password is empty; give one, or remove the key for a public site")
            }
            return .literal(password)
        case (nil, let variable?):
            guard EnvironmentName.isValid(variable) else {
                throw ConfigError(
                    file: name, key: "passwordEnv",
                    "\(JSONValue.string(variable).quoted) is not an environment variable "
                        + "name (letters, digits and _, not starting with a digit)")
            }
            return .environment(variable)
        }
    }

    /// Rejects keys the schema does not know, suggesting the closest known one.
    func checkKeys(_ document: JSONValue) throws {
        guard case .object(let top) = document else { return }
        try checkKeys(of: top, at: "", allowed: SiteConfigFile.knownKeys[""]!)
        for section in ["images", "network", "viewer", "map", "deploy"] {
            if case .object(let object)? = top[section] {
                try checkKeys(of: object, at: section, allowed: SiteConfigFile.knownKeys[section]!)
            }
        }
        if case .object(let source)? = top["source"], case .string(let type)? = source["type"],
            let allowed = SiteConfigFile.knownKeys["source/\(type)"]
        {
            try checkKeys(of: source, at: "source", allowed: allowed)
        }
    }

    private func checkKeys(of object: [String: JSONValue], at path: String, allowed: [String]) throws {
        for key in object.keys.sorted() where !allowed.contains(key) {
            let full = path.isEmpty ? key : "\(path).\(key)"
            let hint =
                Spelling.closest(to: key, among: allowed).map { "did you mean \"\($0)\"?" }
                ?? "known keys here: \(allowed.joined(separator: ", "))"
            throw ConfigError(file: name, key: full, "unknown key; \(hint)")
        }
    }

    private func sourceConfig(_ source: SiteConfigFile.Source) throws -> SourceConfig {
        switch source.type {
        case "folder":
            guard let folder = source.path, !folder.isEmpty else {
                throw ConfigError(file: name, key: "source.path", "missing; a folder source needs the folder of photos")
            }
            return .folder(path(folder, "source.path"))
        case "manifest":
            switch (source.path, source.url) {
            case (let file?, nil): return .manifestFile(path(file, "source.path"))
            case (nil, let address?):
                guard let url = URL(string: address), let scheme = url.scheme?.lowercased(),
                    ["http", "https"].contains(scheme), url.host != nil
                else {
                    throw ConfigError(
                        file: name, key: "source.url",
                        "\(JSONValue.string(address).quoted) is not an http(s) URL")
                }
                return .manifestURL(url)
            case (nil, nil):
                throw ConfigError(file: name, key: "source", "a manifest source needs \"path\" or \"url\"")
            case (_?, _?):
                throw ConfigError(file: name, key: "source", "give either \"path\" or \"url\" for a manifest, not both")
            }
        case "flickr", "500px", "parse":
            return try RemoteSourceValidator(validator: self).validate(source)
        case "immich":
            return try RemoteSourceValidator(validator: self).immich(source)
        default:
            let expected = SiteConfig.sourceTypes.joined(separator: ", ")
            let hint =
                Spelling.closest(to: source.type, among: SiteConfig.sourceTypes).map { "; did you mean \"\($0)\"?" }
                ?? ""
            throw ConfigError(
                file: name, key: "source.type",
                "unknown source \(JSONValue.string(source.type).quoted) (expected \(expected))\(hint)")
        }
    }

    package func path(_ value: String, _ key: String) -> URL {
        let url = value.hasPrefix("/") ? URL(fileURLWithPath: value) : base.appendingPathComponent(value)
        return url.standardizedFileURL
    }

    package func range(_ value: Int, _ key: String, _ allowed: ClosedRange<Int>) throws -> Int {
        guard allowed.contains(value) else {
            throw ConfigError(
                file: name, key: key,
                "\(value) is out of range (expected \(allowed.lowerBound) to \(allowed.upperBound))")
        }
        return value
    }

    private func fraction(_ value: Double, _ key: String) throws -> Double {
        guard (0...1).contains(value) else {
            throw ConfigError(file: name, key: key, "\(value) is out of range (expected 0 to 1)")
        }
        return value
    }

    /// The `video` section, each number in its range.
    private func videoSettings(_ video: SiteConfigFile.Video?) throws -> VideoSettings {
        typealias D = VideoSettings.Defaults
        return VideoSettings(
            maxSeconds: try range(video?.maxSeconds ?? D.maxSeconds, "video.maxSeconds", 1...86_400),
            maxBytes: try range(video?.maxBytes ?? D.maxBytes, "video.maxBytes", 1024...(1 << 40)),
            maxPixels: try range(video?.maxPixels ?? D.maxPixels, "video.maxPixels", 1...400_000_000),
            maxHeight: try range(video?.maxHeight ?? D.maxHeight, "video.maxHeight", 144...4320),
            crf: try range(video?.quality ?? D.crf, "video.quality", 0...51),
            maxBitrate: try range(video?.maxBitrate ?? D.maxBitrate, "video.maxBitrate", 100_000...200_000_000),
            livePhotos: video?.livePhotos ?? D.livePhotos)
    }

    /// Seconds per photo in the slideshow: a finite number in `Defaults.slideshowRange`.
    private func slideshowSeconds(_ value: Double?) throws -> Double {
        guard let value else { return SiteConfig.Defaults.slideshowSeconds }
        let allowed = SiteConfig.Defaults.slideshowRange
        guard value.isFinite, allowed.contains(value) else {
            throw ConfigError(
                file: name, key: "viewer.slideshowSeconds",
                "\(value) is out of range (expected \(Int(allowed.lowerBound)) to \(Int(allowed.upperBound)) seconds)")
        }
        return value
    }

    /// `true` (stripped of location and serial numbers), `false`, or `"as-is"`.
    private func originalsPolicy(_ value: JSONValue?) throws -> OriginalsPolicy {
        switch value {
        case nil: return SiteConfig.Defaults.publishOriginals
        case .bool(true)?: return .stripped
        case .bool(false)?: return .none
        case .string("as-is")?: return .asIs
        case .string("stripped")?: return .stripped
        case let other?:
            throw ConfigError(
                file: name, key: "images.publishOriginals",
                "\(other.quoted) is not allowed; use true (without "
                    + "location and serial numbers), false, or \"as-is\" (every tag, GPS included)")
        }
    }

    /// `"preview"`, `"develop"` or `"skip"`.
    private func rawPolicy(_ value: String?) throws -> RawPolicy {
        guard let value else { return SiteConfig.Defaults.raw }
        guard let policy = RawPolicy(rawValue: value) else {
            let names = RawPolicy.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw ConfigError(
                file: name, key: "images.raw", "\(JSONValue.string(value).quoted) is not allowed; use one of \(names)")
        }
        return policy
    }

    private func exifFields(_ names: [String]) throws -> [ExifField] {
        try names.enumerated().map { index, name in
            guard let field = ExifField(rawValue: name) else {
                throw ConfigError(
                    file: self.name, key: "images.exifFields[\(index)]",
                    "unknown field \(JSONValue.string(name).quoted) "
                        + "(expected \(ExifField.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return field
        }
    }

    private func baseURL(_ value: String) throws -> URL {
        guard let url = URL(string: value), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme), url.host != nil, url.query == nil, url.fragment == nil
        else {
            throw ConfigError(
                file: name, key: "baseURL",
                "\(JSONValue.string(value).quoted) is not an absolute http(s) URL such as \"https://example.com/photos/\""
            )
        }
        return value.hasSuffix("/") ? url : URL(string: value + "/")!
    }

    private func color(_ value: String, _ key: String) throws -> RGB {
        let hex = value.hasPrefix("#") ? value.dropFirst() : Substring(value)
        guard hex.count == 6, let number = UInt32(hex, radix: 16) else {
            throw ConfigError(
                file: name, key: key, "\(JSONValue.string(value).quoted) is not a colour like \"#ffffff\"")
        }
        return RGB(red: UInt8(number >> 16 & 0xff), green: UInt8(number >> 8 & 0xff), blue: UInt8(number & 0xff))
    }
}
