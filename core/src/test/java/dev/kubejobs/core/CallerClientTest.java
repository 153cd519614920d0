/*
 * Copyright 2026 The kubejobs Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package dev.kubejobs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.kubejobs.core.testing.KubeJobsHarness;
import dev.kubejobs.core.testing.LogCapture;
import dev.kubejobs.core.testing.TestJobSpec;
import dev.kubejobs.testkit.Fault;
import dev.kubejobs.testkit.MutableClock;
import io.kubernetes.client.openapi.ApiClient;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kubejobs talks through the caller's client (its authentication and interceptors) and never lets
 * the bearer token into a log line or an exception message.
 */
class CallerClientTest {
  private static final String TOKEN = "eyJhbGciOiJSUzI1NiJ9.c2VjcmV0LXRva2Vu.sig";

  @RegisterExtension
  static final KubeJobsHarness<TestJobSpec> KUBE = KubeJobsHarness.testJobs().build();

  private static final MutableClock CLOCK = KUBE.clock();

  @Test
  void everyRequestCarriesTheCallersAuthenticationThroughItsInterceptors() {
    List<String> seen = new CopyOnWriteArrayList<>();
    ApiClient client = tokenClient(seen);
    KubeJobs<TestJobSpec> jobs = KUBE.track(KUBE.builder(client, "gravitino-a").build());

    ExecutionId id = jobs.submitter().submit("job-1", TestJobSpec.in("etl"));
    jobs.statusReader().get(id);
    jobs.canceller().cancel(id);

    assertThat(seen).hasSizeGreaterThanOrEqualTo(5).allMatch(("Bearer " + TOKEN)::equals);
  }

  @Test
  void failuresNeverShowTheBearerToken() {
    KubeJobs<TestJobSpec> jobs =
        KUBE.track(KUBE.builder(tokenClient(new CopyOnWriteArrayList<>()), "gravitino-a").build());
    ExecutionId id = jobs.submitter().submit("job-1", TestJobSpec.in("etl"));
    ExecutionId other = jobs.submitter().submit("job-2", TestJobSpec.in("etl"));

    try (LogCapture logs = LogCapture.start()) {
      KUBE.server().rbac().deny("delete", "*", "*").deny("list", "*", "*");
      Throwable cancel = catchThrowable(() -> jobs.canceller().cancel(id));
      Throwable status = catchThrowable(() -> jobs.statusReader().get("prod/x.y/etl/z"));
      KUBE.server().faults().add(Fault.on("*", ".*").forever().connectionReset());
      Throwable submit =
          catchThrowable(() -> jobs.submitter().submit("job-3", TestJobSpec.in("etl")));
      Throwable unreachable = catchThrowable(() -> jobs.statusReader().get(other));

      for (Throwable t : List.of(cancel, status, submit, unreachable)) {
        assertThat(t).isNotNull();
        for (Throwable c = t; c != null; c = c.getCause()) {
          assertThat(String.valueOf(c.getMessage()))
              .doesNotContain(TOKEN)
              .doesNotContain("c2VjcmV0");
        }
      }
      assertThat(logs.lines()).noneMatch(l -> l.contains(TOKEN) || l.contains("c2VjcmV0"));
    }
  }

  private static ApiClient tokenClient(List<String> seen) {
    ApiClient client = KUBE.server().newClient();
    client.setApiKeyPrefix("Bearer");
    client.setApiKey(TOKEN);
    client.setHttpClient(
        client
            .getHttpClient()
            .newBuilder()
            .addInterceptor(
                chain -> {
                  seen.add(String.valueOf(chain.request().header("Authorization")));
                  return chain.proceed(chain.request());
                })
            .build());
    return client;
  }
}
