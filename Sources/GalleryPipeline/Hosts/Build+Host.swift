import Foundation
import GalleryOutput

extension Build {
    /// The published site measured against the host the build names (`--host` over `deploy.host`);
    /// nil when it names none. A site over the host's limits is still built: it is valid, and only
    /// its upload cannot happen, which `deploy` refuses and the CLI warns about.
    func measureForHost() -> HostFit? {
        guard let choice = config.deploy.host(over: options.deploy, implied: false) else { return nil }
        do {
            let measure = try SiteMeasure.of(config.output)
            return HostFit(measure, choice: choice)
        } catch {
            progress(.warning("\(choice.label): the published site could not be measured: \(error)"))
            return nil
        }
    }
}
