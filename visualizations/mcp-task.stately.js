import { createMachine } from 'xstate';
export default createMachine({
  "id": "mcpTask",
  "initial": "working",
  "on": {
    "CANCEL": {
      "target": ".cancelling",
      "actions": {
        "type": "failCancelled"
      }
    }
  },
  "states": {
    "working": {
      "meta": {
        "operation": "tasks/get"
      },
      "after": {
        "POLL_DELAY": {
          "target": "polling"
        },
        "TASK_DEADLINE": {
          "target": "cancelling",
          "actions": "failTaskDeadline"
        }
      }
    },
    "polling": {
      "meta": {
        "operation": "tasks/get"
      },
      "entry": {
        "type": "beginRequest",
        "params": {
          "operation": "tasks/get"
        }
      },
      "exit": "nextRequestId",
      "invoke": {
        "id": "getTask",
        "src": "taskExchange",
        "onDone": [
          {
            "guard": {
              "type": "isUnauthorized"
            },
            "target": "done",
            "actions": {
              "type": "failUnauthorized"
            }
          },
          {
            "guard": {
              "type": "isTaskGone"
            },
            "target": "done",
            "actions": "failTaskGone"
          },
          {
            "guard": {
              "type": "isHttpError"
            },
            "target": "cancelling",
            "actions": {
              "type": "failRefused"
            }
          },
          {
            "guard": {
              "type": "isCompleted"
            },
            "target": "done",
            "actions": [
              {
                "type": "reportStatus"
              },
              {
                "type": "assignStatus"
              },
              {
                "type": "succeed"
              }
            ]
          },
          {
            "guard": {
              "type": "isFailed"
            },
            "target": "done",
            "actions": [
              {
                "type": "reportStatus"
              },
              {
                "type": "assignStatus"
              },
              {
                "type": "failTaskFailed"
              }
            ]
          },
          {
            "guard": {
              "type": "isCancelledByServer"
            },
            "target": "done",
            "actions": [
              {
                "type": "reportStatus"
              },
              {
                "type": "assignStatus"
              },
              "failServerCancelled"
            ]
          },
          {
            "guard": {
              "type": "awaitsResult"
            },
            "target": "fetchingResult",
            "actions": [
              {
                "type": "reportStatus"
              },
              {
                "type": "assignStatus"
              }
            ]
          },
          {
            "guard": {
              "type": "asksForInput"
            },
            "target": "asking",
            "actions": [
              {
                "type": "reportStatus"
              },
              {
                "type": "assignStatus"
              },
              {
                "type": "assignInput"
              }
            ]
          },
          {
            "guard": {
              "type": "asksForInputPastLimit"
            },
            "target": "cancelling",
            "actions": [
              {
                "type": "reportStatus"
              },
              {
                "type": "assignStatus"
              },
              {
                "type": "failProtocol",
                "params": {
                  "violation": "asked for client input in more rounds than a call answers"
                }
              }
            ]
          },
          {
            "guard": {
              "type": "isStatus"
            },
            "target": "working",
            "actions": [
              {
                "type": "reportStatus"
              },
              {
                "type": "assignStatus"
              }
            ]
          },
          {
            "target": "cancelling",
            "actions": {
              "type": "failProtocol",
              "params": {
                "violation": "ended a tasks/get without a response"
              }
            }
          }
        ],
        "onError": [
          {
            "guard": {
              "type": "isGoneError"
            },
            "target": "done",
            "actions": "failTaskGone"
          },
          {
            "target": "cancelling",
            "actions": {
              "type": "failWithError"
            }
          }
        ]
      },
      "after": {
        "REQUEST_DEADLINE": {
          "target": "cancelling",
          "actions": "failRequestDeadline"
        },
        "TASK_DEADLINE": {
          "target": "cancelling",
          "actions": "failTaskDeadline"
        }
      }
    },
    "asking": {
      "meta": {
        "operation": "tasks/update"
      },
      "entry": {
        "type": "beginRequest",
        "params": {
          "operation": "tasks/update"
        }
      },
      "invoke": {
        "id": "answerTaskInput",
        "src": "answerTaskInput",
        "onDone": {
          "target": "updating",
          "actions": {
            "type": "assignResponses"
          }
        },
        "onError": {
          "target": "cancelling",
          "actions": {
            "type": "failWithError"
          }
        }
      },
      "after": {
        "TASK_DEADLINE": {
          "target": "cancelling",
          "actions": "failTaskDeadline"
        }
      }
    },
    "updating": {
      "meta": {
        "operation": "tasks/update"
      },
      "entry": {
        "type": "beginRequest",
        "params": {
          "operation": "tasks/update"
        }
      },
      "exit": "nextRequestId",
      "invoke": {
        "id": "updateTask",
        "src": "taskExchange",
        "onDone": [
          {
            "guard": {
              "type": "isUnauthorized"
            },
            "target": "done",
            "actions": {
              "type": "failUnauthorized"
            }
          },
          {
            "guard": {
              "type": "isTaskGone"
            },
            "target": "done",
            "actions": "failTaskGone"
          },
          {
            "guard": {
              "type": "isHttpError"
            },
            "target": "cancelling",
            "actions": {
              "type": "failRefused"
            }
          },
          {
            "guard": {
              "type": "isAck"
            },
            "target": "working"
          },
          {
            "target": "cancelling",
            "actions": {
              "type": "failProtocol",
              "params": {
                "violation": "ended a tasks/update without a response"
              }
            }
          }
        ],
        "onError": [
          {
            "guard": {
              "type": "isGoneError"
            },
            "target": "done",
            "actions": "failTaskGone"
          },
          {
            "target": "cancelling",
            "actions": {
              "type": "failWithError"
            }
          }
        ]
      },
      "after": {
        "REQUEST_DEADLINE": {
          "target": "cancelling",
          "actions": "failRequestDeadline"
        },
        "TASK_DEADLINE": {
          "target": "cancelling",
          "actions": "failTaskDeadline"
        }
      }
    },
    "fetchingResult": {
      "meta": {
        "operation": "tasks/result"
      },
      "entry": {
        "type": "beginRequest",
        "params": {
          "operation": "tasks/result"
        }
      },
      "exit": "nextRequestId",
      "invoke": {
        "id": "fetchTaskResult",
        "src": "taskExchange",
        "onDone": [
          {
            "guard": {
              "type": "isUnauthorized"
            },
            "target": "done",
            "actions": {
              "type": "failUnauthorized"
            }
          },
          {
            "guard": {
              "type": "isTaskGone"
            },
            "target": "done",
            "actions": "failTaskGone"
          },
          {
            "guard": {
              "type": "isHttpError"
            },
            "target": "cancelling",
            "actions": {
              "type": "failRefused"
            }
          },
          {
            "guard": {
              "type": "isResult"
            },
            "target": "done",
            "actions": {
              "type": "succeed"
            }
          },
          {
            "target": "cancelling",
            "actions": {
              "type": "failProtocol",
              "params": {
                "violation": "ended a tasks/result without a response"
              }
            }
          }
        ],
        "onError": [
          {
            "guard": {
              "type": "isGoneError"
            },
            "target": "done",
            "actions": "failTaskGone"
          },
          {
            "guard": {
              "type": "isRpcFailure"
            },
            "target": "done",
            "actions": {
              "type": "failTaskResultError"
            }
          },
          {
            "target": "cancelling",
            "actions": {
              "type": "failWithError"
            }
          }
        ]
      },
      "after": {
        "TASK_DEADLINE": {
          "target": "cancelling",
          "actions": "failTaskDeadline"
        }
      }
    },
    "cancelling": {
      "meta": {
        "operation": "tasks/cancel"
      },
      "entry": {
        "type": "beginRequest",
        "params": {
          "operation": "tasks/cancel"
        }
      },
      "exit": "nextRequestId",
      "invoke": {
        "id": "cancelTask",
        "src": "taskExchange",
        "onDone": {
          "target": "done"
        },
        "onError": {
          "target": "done"
        }
      },
      "after": {
        "CANCEL_DEADLINE": {
          "target": "done"
        }
      },
      "on": {
        "CANCEL": {
          "target": "done"
        }
      }
    },
    "done": {
      "type": "final",
      "entry": [
        "forgetAnswers",
        "teardown"
      ]
    }
  }
});
