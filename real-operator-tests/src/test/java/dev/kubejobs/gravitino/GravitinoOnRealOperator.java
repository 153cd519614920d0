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
package dev.kubejobs.gravitino;

import java.io.File;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.gravitino.connector.job.JobExecutor;
import org.apache.gravitino.job.JobHandle;
import org.apache.gravitino.job.SparkJobTemplate;

/**
 * The Gravitino stand-ins of kubejobs-gravitino's tests (its test-jar), package-private there, for
 * the real-operator suite: the executor created as a server's factory creates it ({@link
 * GravitinoServerStandIn#createExecutor}), the job manager's submit, pull and cancel ({@link
 * GravitinoJobManagerStandIn}) and the SparkPi template ({@link Templates#sparkPi()}).
 */
public final class GravitinoOnRealOperator implements AutoCloseable {
  /** The namespace of {@link Templates#sparkPi()}'s jobs. */
  public static final String NAMESPACE = "gravitino-jobs";

  private final GravitinoJobManagerStandIn manager;

  /**
   * Creates a job manager stand-in with no template.
   *
   * @param metalake the metalake of the jobs
   * @param stagingDir the jobs' staging directory
   */
  public GravitinoOnRealOperator(String metalake, File stagingDir) {
    this.manager = new GravitinoJobManagerStandIn(metalake, stagingDir);
  }

  /**
   * Creates and initializes the {@code kubejobs} executor from {@code gravitino.conf} lines, as a
   * Gravitino server does: {@code gravitino.job.executor = kubejobs}, the class, and the given
   * {@code gravitino.jobExecutor.kubejobs.*} settings (keys without that prefix).
   *
   * @param settings the executor's settings, e.g. {@code kubeconfig} and {@code cluster}
   * @return the initialized executor; the caller closes it
   */
  public static JobExecutor createExecutor(Map<String, String> settings) {
    Map<String, String> conf = new HashMap<>();
    conf.put(GravitinoServerStandIn.EXECUTOR_KEY, "kubejobs");
    conf.put(ExecutorSettings.PREFIX + "class", KubeJobsSparkExecutor.class.getName());
    settings.forEach((k, v) -> conf.put(ExecutorSettings.PREFIX + k, v));
    return GravitinoServerStandIn.createExecutor(
        conf, GravitinoOnRealOperator.class.getClassLoader());
  }

  /**
   * Returns {@link Templates#sparkPi()} under another name, with its image set by the {@code
   * kubejobs.image} custom field.
   *
   * @param name the template's name
   * @param image the driver's image
   * @return the template
   */
  public static SparkJobTemplate sparkPi(String name, String image) {
    SparkJobTemplate pi = Templates.sparkPi();
    Map<String, String> fields = new HashMap<>(pi.customFields());
    fields.put(GravitinoMapping.IMAGE_FIELD, image);
    return SparkJobTemplate.builder()
        .withName(name)
        .withComment(pi.comment())
        .withExecutable(pi.executable())
        .withClassName(pi.className())
        .withArguments(pi.arguments())
        .withEnvironments(pi.environments())
        .withConfigs(pi.configs())
        .withCustomFields(fields)
        .build();
  }

  /**
   * Registers a template.
   *
   * @param template the template, under its name
   */
  public void registerTemplate(SparkJobTemplate template) {
    manager.registerTemplate(template.name(), template);
  }

  /**
   * Runs a job of a template on a node, recorded QUEUED.
   *
   * @param node the node's executor
   * @param template the template's name
   * @return the Gravitino job id
   */
  public long runJob(JobExecutor node, String template) {
    return manager.runJob(node, template);
  }

  /**
   * Pulls the node's active jobs every {@code interval} on a thread of its own, until closed.
   *
   * @param node the node's executor
   * @param interval the pull interval
   */
  public void startPulling(JobExecutor node, Duration interval) {
    manager.startPulling(node, interval);
  }

  /**
   * Cancels a job through a node, as Gravitino's job manager does.
   *
   * @param node the node's executor
   * @param id the Gravitino job id
   */
  public void cancel(JobExecutor node, long id) {
    manager.cancel(node, id);
  }

  /**
   * Returns a job's record.
   *
   * @param id the Gravitino job id
   * @return its recorded status
   */
  public JobHandle.Status status(long id) {
    return manager.job(id).status();
  }

  /**
   * Returns a job's execution id, as the executor returned it.
   *
   * @param id the Gravitino job id
   * @return the execution id
   */
  public String executionId(long id) {
    return manager.job(id).executionId();
  }

  /**
   * Returns whether the job's record has a start and an end time, the end not before the start.
   *
   * @param id the Gravitino job id
   * @return whether both times are recorded in order
   */
  public boolean startAndEndRecordedInOrder(long id) {
    GravitinoJobManagerStandIn.Job job = manager.job(id);
    return job.startedAt() != null
        && job.finishedAt() != null
        && !job.finishedAt().isBefore(job.startedAt());
  }

  /**
   * Returns what pulls failed with, and what ended a node's pulls.
   *
   * @return the errors, empty when none
   */
  public List<String> pullErrors() {
    List<String> errors = new java.util.ArrayList<>(manager.pullErrors());
    manager.endedPulls().forEach(e -> errors.add("ended the pulls: " + e));
    return errors;
  }

  @Override
  public void close() {
    manager.close();
  }
}
