import GalleryConfig
import GalleryModel
import GalleryOutput

// The names the command line uses from the stages below the pipeline. The `galleryssg` executable
// depends on GalleryPipeline and GalleryServe alone, so these aliases are its whole view of the
// other stages: the site config and its errors, shards, byte counts and the deployer.

package typealias SiteConfig = GalleryConfig.SiteConfig
package typealias ConfigError = GalleryConfig.ConfigError
package typealias Credentials = GalleryConfig.Credentials
package typealias DeployDestination = GalleryConfig.DeployDestination
package typealias DeploySettings = GalleryConfig.DeploySettings
package typealias SiteConfigSchema = GalleryConfig.SiteConfigSchema
package typealias Shard = GalleryModel.Shard
package typealias ByteCount = GalleryModel.ByteCount
package typealias Deployer = GalleryOutput.Deployer
/// The edit distance behind "did you mean …?" hints, for misspelt commands.
package typealias Spelling = GalleryModel.Spelling
