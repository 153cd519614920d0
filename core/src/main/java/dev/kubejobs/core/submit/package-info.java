/** Submitting jobs: {@link dev.kubejobs.core.submit.JobSubmitter}. */
package dev.kubejobs.core.submit;
