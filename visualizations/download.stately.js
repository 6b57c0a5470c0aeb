import { createMachine } from 'xstate';
export default createMachine({
  "id": "download",
  "initial": "resolving",
  "on": {
    "CANCEL": {
      "target": ".closed",
      "actions": {
        "type": "failCancelled"
      }
    }
  },
  "states": {
    "resolving": {
      "meta": {
        "operation": "resolve"
      },
      "invoke": {
        "id": "resolveUrl",
        "src": "resolveUrl",
        "onDone": [
          {
            "guard": {
              "type": "hasUrl"
            },
            "target": "transferring",
            "actions": {
              "type": "assignUrl"
            }
          },
          {
            "target": "closed",
            "actions": "failNotFound"
          }
        ],
        "onError": {
          "target": "closed",
          "actions": {
            "type": "failWithError"
          }
        }
      },
      "after": {
        "HEADER_DEADLINE": {
          "target": "closed",
          "actions": {
            "type": "failTimeout",
            "params": {
              "deadline": "headers"
            }
          }
        }
      }
    },
    "transferring": {
      "invoke": {
        "id": "transfer",
        "src": "transfer"
      },
      "initial": "awaitingHeaders",
      "states": {
        "awaitingHeaders": {
          "meta": {
            "operation": "fetch"
          },
          "after": {
            "HEADER_DEADLINE": {
              "target": "#download.closed",
              "actions": {
                "type": "failTimeout",
                "params": {
                  "deadline": "headers"
                }
              }
            }
          },
          "on": {
            "HEADERS": [
              {
                "guard": {
                  "type": "isErrorStatus"
                },
                "target": "#download.closed",
                "actions": {
                  "type": "failHttpStatus"
                }
              },
              {
                "guard": {
                  "type": "isDeclaredTooLarge"
                },
                "target": "#download.closed",
                "actions": "failTooLarge"
              },
              {
                "target": "receivingBody",
                "actions": {
                  "type": "assignTarget"
                }
              }
            ]
          }
        },
        "receivingBody": {
          "meta": {
            "operation": "write"
          },
          "entry": "startWriting",
          "after": {
            "BODY_DEADLINE": {
              "target": "#download.closed",
              "actions": {
                "type": "failTimeout",
                "params": {
                  "deadline": "body"
                }
              }
            }
          },
          "on": {
            "WRITTEN": {
              "target": "#download.closed",
              "actions": {
                "type": "succeed"
              }
            }
          }
        }
      },
      "on": {
        "TRANSFER_FAILED": {
          "target": "closed",
          "actions": {
            "type": "failWithError"
          }
        }
      }
    },
    "closed": {
      "type": "final",
      "entry": "teardown"
    }
  }
});
