// Package flowrun is what runs a flowc-generated workflow with mocked
// handlers: the mocks themselves (MockConfig, in the format of AWS Step
// Functions Local, and the Mocks of one test case), which tests and the
// generated New<Workflow>Mock use, and the main function of the programs
// `flowc run` builds, with the checkpoint protocol that lends them the
// store of `flowc run --checkpoint-db`. Generated code imports it as
// flowcrun. The runtime never imports it.
package flowrun
