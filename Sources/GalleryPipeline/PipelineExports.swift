import GalleryConfig
import GalleryModel
import GalleryOutput

// The names the command line uses from the stages below the pipeline. The `galleryssg` executable
// depends on GalleryPipeline and GalleryServe alone, so these aliases are its whole view of the
// other stages: the site config and its errors, shards, byte counts, the deployer and the hosts it
// deploys for.

public typealias SiteConfig = GalleryConfig.SiteConfig
public typealias ConfigError = GalleryConfig.ConfigError
public typealias Credentials = GalleryConfig.Credentials
public typealias DeployDestination = GalleryConfig.DeployDestination
public typealias DeploySettings = GalleryConfig.DeploySettings
public typealias DeployHost = GalleryConfig.DeployHost
public typealias HostPlan = GalleryConfig.HostPlan
public typealias HostChoice = GalleryConfig.HostChoice
public typealias SiteConfigSchema = GalleryConfig.SiteConfigSchema
public typealias Shard = GalleryModel.Shard
public typealias ByteCount = GalleryModel.ByteCount
public typealias Deployer = GalleryOutput.Deployer
/// The edit distance behind "did you mean …?" hints, for misspelt commands.
public typealias Spelling = GalleryModel.Spelling
