/**
 * Resilience for every request kubejobs sends: a pluggable {@link
 * dev.kubejobs.core.resilience.ResiliencePolicy}, by default {@link
 * dev.kubejobs.core.resilience.Resilience4jPolicy} (Retry around CircuitBreaker), and the transient
 * failure type {@link dev.kubejobs.core.resilience.ApiCallFailure} it retries.
 */
package dev.kubejobs.core.resilience;
