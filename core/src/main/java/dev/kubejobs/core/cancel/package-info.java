/** Cancelling jobs: {@link dev.kubejobs.core.cancel.JobCanceller}. */
package dev.kubejobs.core.cancel;
