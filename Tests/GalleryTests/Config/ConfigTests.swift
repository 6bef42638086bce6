import Foundation
import GalleryConfig
import GalleryModel
import Testing

@Suite("site-config.json")
struct ConfigTests {
    let file = URL(fileURLWithPath: "/sites/demo/site-config.json")

    func load(_ json: String, environment: [String: String] = [:]) throws -> SiteConfig {
        try SiteConfig.parse(Data(json.utf8), file: file, environment: environment)
    }

    func message(_ json: String, environment: [String: String] = [:]) -> String? {
        do {
            _ = try load(json, environment: environment)
            return nil
        } catch let error as ConfigError {
            #expect(error.file == file.path)
            return error.message
        } catch {
            return "unexpected error: \(error)"
        }
    }

    @Test func defaultsFillEverythingButTheSource() throws {
        let config = try load(#"{"source": {"type": "folder", "path": "photos"}}"#)
        #expect(config.title == "Photo gallery")
        #expect(config.pageSize == 24)
        #expect(config.output.path == "/sites/demo/public")
        #expect(config.templates.path == "/sites/demo/Templates")
        #expect(config.source == .folder(URL(fileURLWithPath: "/sites/demo/photos")))
        #expect(config.images.thumbnail == 400)
        #expect(config.images.preview == 1600)
        #expect(config.images.widths == [480, 800, 1200])
        #expect(config.network.allowHTTP == false)
        #expect(config.network.connectionsPerHost == 6)
        #expect(config.stateDirectory.path == "/sites/demo/.galleryssg")
        #expect(config.cacheDirectory.path == "/sites/demo/.galleryssg/cache")
    }

    @Test func relativePathsResolveAgainstTheConfigFolder() throws {
        let config = try load(
            #"{"output": "../site-out", "templates": "/abs/theme", "source": {"type": "manifest", "path": "data/m.json"}}"#
        )
        #expect(config.output.path == "/sites/site-out")
        #expect(config.templates.path == "/abs/theme")
        #expect(config.source == .manifestFile(URL(fileURLWithPath: "/sites/demo/data/m.json")))
        // The cache follows the state unless it has a place of its own.
        #expect(
            try load(#"{"state": "/var/state", "source": {"type": "folder", "path": "p"}}"#).cacheDirectory.path
                == "/var/state/cache")
        #expect(
            try load(#"{"cache": "../shared/cache", "source": {"type": "folder", "path": "p"}}"#).cacheDirectory.path
                == "/sites/shared/cache")
    }

    @Test func environmentReferencesAreSubstituted() throws {
        let config = try load(
            #"{"title": "${OWNER}'s photos", "source": {"type": "folder", "path": "${DIR}/x"}}"#,
            environment: ["OWNER": "Ana", "DIR": "pics"])
        #expect(config.title == "Ana's photos")
        #expect(config.source == .folder(URL(fileURLWithPath: "/sites/demo/pics/x")))
    }

    @Test func unknownSourceTypeNamesTheChoices() {
        #expect(
            message(#"{"source": {"type": "flikr"}}"#)
                == #"source.type: unknown source "flikr" (expected flickr, 500px, parse, immich, manifest, folder); did you mean "flickr"?"#
        )
    }

    @Test func missingEnvironmentVariable() {
        #expect(
            message(#"{"source": {"type": "folder", "path": "${PHOTO_DIR}"}}"#)
                == "source.path: environment variable PHOTO_DIR is not set; export PHOTO_DIR=… before running galleryssg"
        )
    }

    @Test func wrongTypeQuotesTheValue() {
        #expect(
            message(#"{"pageSize": "ten", "source": {"type": "folder", "path": "p"}}"#)
                == #"pageSize: expected a whole number, got "ten""#)
        #expect(
            message(#"{"images": {"widths": [480, "big"]}, "source": {"type": "folder", "path": "p"}}"#)
                == #"images.widths[1]: expected a whole number, got "big""#)
        #expect(
            message(#"{"title": 7, "source": {"type": "folder", "path": "p"}}"#)
                == "title: expected a string, got 7")
    }

    @Test func outOfRangeValues() {
        #expect(
            message(#"{"images": {"quality": 150}, "source": {"type": "folder", "path": "p"}}"#)
                == "images.quality: 150 is out of range (expected 1 to 100)")
        #expect(
            message(#"{"pageSize": 0, "source": {"type": "folder", "path": "p"}}"#)
                == "pageSize: 0 is out of range (expected 1 to 50)")
    }

    @Test func unknownKeySuggestsTheRightSpelling() {
        #expect(
            message(#"{"pagesize": 10, "source": {"type": "folder", "path": "p"}}"#)
                == #"pagesize: unknown key; did you mean "pageSize"?"#)
        // At every level of the file: sections, the source, and a misspelt source type.
        let cases = [
            (
                #"{"titel": "x", "source": {"type": "folder", "path": "p"}}"#,
                #"titel: unknown key; did you mean "title"?"#
            ),
            (
                #"{"images": {"qualty": 80}, "source": {"type": "folder", "path": "p"}}"#,
                #"images.qualty: unknown key; did you mean "quality"?"#
            ),
            (
                #"{"network": {"timeoutSecond": 2}, "source": {"type": "folder", "path": "p"}}"#,
                #"network.timeoutSecond: unknown key; did you mean "timeoutSeconds"?"#
            ),
            (
                #"{"deploy": {"taget": "s3://b"}, "source": {"type": "folder", "path": "p"}}"#,
                #"deploy.taget: unknown key; did you mean "target"?"#
            ),
            (#"{"source": {"type": "folder", "paht": "p"}}"#, #"source.paht: unknown key; did you mean "path"?"#),
            (
                #"{"source": {"type": "foldr", "path": "p"}}"#,
                #"source.type: unknown source "foldr" (expected flickr, 500px, parse, immich, manifest, folder); did you mean "folder"?"#
            ),
            (
                #"{"colophon": 1, "source": {"type": "folder", "path": "p"}}"#,
                "colophon: unknown key; known keys here: title, description, baseURL, output, templates, state, cache, pageSize, "
                    + "sort, download, source, password, passwordEnv, images, network, viewer, language, map, deploy, video, $schema"
            )
        ]
        for (json, expected) in cases {
            #expect(message(json) == expected)
        }
    }

    /// Syntax errors name the line and column and what was expected there; trailing commas are refused, as JSON has it.
    @Test func syntaxErrorsNameTheLineAndColumn() throws {
        let cases = [
            (
                "{\n  \"title\": \"x\"\n  \"source\": {}\n}",
                #"3:3: expected "," or "}" after the value of "title"; add a comma between the two"#
            ),
            (
                "{\n  \"title\": \"x\",\n}",
                #"2:15: trailing comma after the value of "title"; remove it (JSON allows no comma before "}")"#
            ),
            (
                #"{"images": {"widths": [320, 640,]}}"#,
                #"1:32: trailing comma after item 2 of "widths"; remove it (JSON allows no comma before "]")"#
            ),
            (
                #"{"title": 'x'}"#,
                #"1:11: expected a value for "title", found "'"; JSON strings take double quotes, not single ones"#
            ),
            (
                #"{"images": {"quality": high}}"#,
                #"1:24: expected a value for "quality", found "h"; write text in double quotes, and true, false and null in lower case"#
            ),
            ("{\"title\": \"x\"", #"1:14: the file ends before the "}" that closes the object opened at 1:1"#),
            (
                "{\"title\": \"x}",
                #"1:14: the file ends inside the string that starts at 1:11; close it with a double quote"#
            ),
            ("{\"title\": \"x\"}}", #"1:15: found "}" after the end of the top-level value; remove it"#),
            ("", "1:1: the file is empty; expected a JSON value")
        ]
        for (json, expected) in cases {
            let error = try #require(throws: ConfigError.self) { try load(json) }
            #expect(error.description == "\(file.path):\(expected)", "\(json)")
        }
    }

    @Test func missingSourceAndBadManifestSource() {
        #expect(
            message(#"{"title": "x"}"#)
                == #"source: missing; add for example "source": {"type": "folder", "path": "photos"}"#)
        #expect(message(#"{"source": {"type": "manifest"}}"#) == #"source: a manifest source needs "path" or "url""#)
        #expect(
            message(#"{"source": {"type": "manifest", "url": "ftp://x/m.json"}}"#)
                == #"source.url: "ftp://x/m.json" is not an http(s) URL"#)
    }

    @Test func badBaseURLAndColour() {
        #expect(
            message(#"{"baseURL": "example.com", "source": {"type": "folder", "path": "p"}}"#)
                == #"baseURL: "example.com" is not an absolute http(s) URL such as "https://example.com/photos/""#)
        #expect(
            message(#"{"images": {"background": "white"}, "source": {"type": "folder", "path": "p"}}"#)
                == ##"images.background: "white" is not a colour like "#ffffff""##)
    }

    @Test func invalidJSONAndMissingFile() throws {
        let error = try #require(throws: ConfigError.self) { try load("{\"title\": \"x\",, }") }
        #expect((error.line, error.column) == (1, 15))
        #expect(error.description == "\(file.path):1:15: expected a key in double quotes, found \",\"")
        do {
            _ = try SiteConfig.load(from: URL(fileURLWithPath: "/nonexistent/site-config.json"))
            Issue.record("expected an error")
        } catch let error as ConfigError {
            #expect(
                error.description
                    == "/nonexistent/site-config.json: no such file; run galleryssg in the site's folder or pass --config PATH"
            )
        }
    }

    @Test func baseURLGetsATrailingSlash() throws {
        let config = try load(#"{"baseURL": "https://example.com/photos", "source": {"type": "folder", "path": "p"}}"#)
        #expect(config.baseURL?.absoluteString == "https://example.com/photos/")
    }

    @Test func remoteSourcesGetDefaultsAndRememberTheirVariables() throws {
        let config = try load(
            #"{"source": {"type": "flickr", "apiKey": "${FLICKR_API_KEY}", "params": {"tags": "sea", "per_day": 3}}}"#,
            environment: ["FLICKR_API_KEY": "k-123456"])
        guard case .flickr(let flickr) = config.source else {
            Issue.record("not flickr")
            return
        }
        #expect(flickr.method == "flickr.interestingness.getList")
        #expect(flickr.endpoint == FlickrSource.restEndpoint)
        #expect(flickr.params == ["tags": "sea", "per_day": "3"])
        #expect(flickr.limit == 500)
        #expect(config.credentials.secrets == ["k-123456"])
        #expect(config.credentials.hint("source.apiKey") == "FLICKR_API_KEY")
        #expect(config.credentials.redact("url?api_key=k-123456&x") == "url?api_key=***&x")

        let feed = try load(#"{"source": {"type": "flickr", "method": "feed", "params": {"tags": "cats"}}}"#)
        guard case .flickr(let publicFeed) = feed.source else {
            Issue.record("not flickr")
            return
        }
        #expect(publicFeed.endpoint == FlickrSource.feedEndpoint)

        let parse = try load(
            #"{"source": {"type": "parse", "applicationId": "a", "endpoint": "https://h.example/parse", "columns": {"title": "name"}, "where": {"public": true}}}"#
        )
        guard case .parse(let rows) = parse.source else {
            Issue.record("not parse")
            return
        }
        #expect(rows.className == "Resource")
        #expect(rows.columns == ["title": "name", "image": "fileURLString", "thumbnail": "thumbnailURLString"])
        #expect(rows.whereJSON == #"{"public":true}"#)
        #expect(rows.limit == nil)
    }

    @Test func exifFieldsAreChecked() throws {
        let config = try load(
            #"{"images": {"exifFields": ["iso", "camera"]}, "source": {"type": "folder", "path": "p"}}"#)
        #expect(config.images.exifFields == [.iso, .camera])
        #expect(
            message(#"{"images": {"exifFields": ["iso", "gps"]}, "source": {"type": "folder", "path": "p"}}"#)
                == #"images.exifFields[1]: unknown field "gps" (expected camera, lens, focalLength, aperture, exposure, iso)"#
        )
    }

    @Test func remoteSourceErrors() {
        #expect(
            message(#"{"source": {"type": "flickr"}}"#)
                == #"source.apiKey: missing; Flickr's REST API needs a key, e.g. "apiKey": "${FLICKR_API_KEY}" (or use "method": "feed" for the key-less public feed)"#
        )
        #expect(
            message(#"{"source": {"type": "flickr", "apiKey": "k", "method": "flickr.photos.everything"}}"#)?
                .hasPrefix(
                    #"source.method: unknown method "flickr.photos.everything" (expected flickr.interestingness.getList, "#
                ) == true)
        #expect(
            message(#"{"source": {"type": "500px"}}"#)
                == #"source.consumerKey: missing; the 500px API needs a consumer key, e.g. "consumerKey": "${PX500_CONSUMER_KEY}""#
        )
        #expect(
            message(#"{"source": {"type": "parse", "applicationId": "a", "className": "../x"}}"#)
                == #"source.className: "../x" is not a Parse class name (letters, digits, _)"#)
        #expect(
            message(#"{"source": {"type": "parse", "applicationId": "a", "columns": {"picture": "x"}}}"#)
                == "source.columns.picture: unknown field (expected title, image, thumbnail, description, author, takenAt, tags, album, license)"
        )
        #expect(
            message(#"{"source": {"type": "500px", "consumerKey": "k", "endpoint": "api.500px.com"}}"#)
                == #"source.endpoint: "api.500px.com" is not an http(s) URL"#)
        #expect(
            message(#"{"source": {"type": "flickr", "apiKey": "k", "consumerKey": "x"}}"#)?
                .hasPrefix("source.consumerKey: unknown key; known keys here: type, endpoint, limit") == true)
    }
}
