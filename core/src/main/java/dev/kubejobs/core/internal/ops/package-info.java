/**
 * The implementations of submit, status and cancel, built by {@code KubeJobs} from a {@link
 * dev.kubejobs.core.internal.KubeJobsContext}. Not a published API.
 */
package dev.kubejobs.core.internal.ops;
