"""The techstacks app's /types/metadata document, written from compact type declarations.

The DTOs mirror the public TechStacks service model (names, property order, routes, verbs,
attributes); `generate.py` calls `document()` and writes it one type per line.
"""

SS, SYS, COLL = "ServiceStack", "System", "System.Collections.Generic"
MODEL, TYPES = "TechStacks.ServiceModel", "TechStacks.ServiceModel.Types"

VALUE_TYPES = {"Int32", "Int64", "Boolean", "DateTime", "Double", "Decimal", "Guid", "TimeSpan"}
SYSTEM_TYPES = VALUE_TYPES | {"String", "Object"}
ENUMS = {}  # name -> namespace, filled by enum()


def prop(name, spec, **extra):
    """A property from a C#-like type spelling: `Int64`, `Int32?`, `List<Option>`, `String[]`,
    `Dictionary<String,String>`, `TechnologyTier`."""
    p = {"name": name}
    if spec.endswith("?"):
        inner = spec[:-1]
        p.update({"type": "Nullable`1", "namespace": SYS, "isValueType": True, "genericArgs": [inner]})
    elif spec.endswith("[]"):
        p.update({"type": spec, "namespace": SYS})
    elif spec.startswith("List<"):
        p.update({"type": "List`1", "namespace": COLL, "genericArgs": [spec[5:-1]]})
    elif spec.startswith("HashSet<"):
        p.update({"type": "HashSet`1", "namespace": COLL, "genericArgs": [spec[8:-1]]})
    elif spec.startswith("Dictionary<"):
        p.update({"type": "Dictionary`2", "namespace": COLL, "genericArgs": [a.strip() for a in spec[11:-1].split(",", 1)]})
    elif spec in SYSTEM_TYPES:
        p.update({"type": spec, "namespace": SYS})
        if spec in VALUE_TYPES:
            p["isValueType"] = True
    elif spec in ENUMS:
        p.update({"type": spec, "namespace": ENUMS[spec], "isValueType": True, "isEnum": True})
    elif spec == "ResponseStatus":
        p.update({"type": spec, "namespace": SS})
    else:
        p.update({"type": spec, "namespace": TYPES if spec in TYPE_NAMESPACE_TYPES else MODEL})
    p.update(extra)
    return p


TYPE_NAMESPACE_TYPES = {"Technology", "TechnologyView", "TechnologyStack", "TechnologyStackView", "Post",
                        "TechnologyBase", "TechnologyStackBase"}


def name_ref(name, namespace, *generic_args):
    ref = {"name": name, "namespace": namespace}
    if generic_args:
        ref["genericArgs"] = list(generic_args)
    return ref


def dto(name, namespace, properties, inherits=None, implements=(), attributes=None, **extra):
    t = {"name": name, "namespace": namespace}
    if inherits:
        t["inherits"] = inherits
    t["implements"] = list(implements)
    if attributes:
        t["attributes"] = attributes
    t.update(extra)
    t["properties"] = properties
    return t


def enum(name, namespace, names, descriptions):
    ENUMS[name] = namespace
    return {"name": name, "namespace": namespace, "implements": [], "isEnum": True,
            "enumNames": names, "enumDescriptions": descriptions}


def attribute(name, **args):
    # /types/metadata lists an attribute's named arguments sorted by name.
    return {"name": name, "args": [{"name": k, "type": "String", "value": args[k]} for k in sorted(args)]}


# `[StringLength(StringLengthAttribute.MaxText)]` on the model's long text columns.
MAX_TEXT = {"attributes": [{"name": "StringLength", "constructorArgs": [{"name": "maximumLength", "type": "Int32", "value": "2147483647"}]}]}


def returns(response, namespace=MODEL):
    return name_ref("IReturn`1", SS, response)


# The native-types options the host reports: on for those its published Swift header shows on,
# and for ServiceStack's defaults every published C# and VB.NET header shows on.
CONFIG_FLAGS = {key: key in ("addServiceStackTypes", "addModelExtensions", "addDescriptionAsComments", "initializeCollections",
                             "makePartial", "makeVirtual", "addReturnMarker") for key in [
    "makePartial", "makeVirtual", "makeInternal", "addReturnMarker", "addDescriptionAsComments", "addDocAnnotations",
    "addDataContractAttributes", "addIndexesToDataMembers", "addGeneratedCodeAttributes", "addResponseStatus",
    "addServiceStackTypes", "addModelExtensions", "addPropertyAccessors", "excludeGenericBaseTypes", "settersReturnThis",
    "addNullableAnnotations", "makePropertiesOptional", "exportAsTypes", "excludeImplementedInterfaces",
    "addDefaultXmlNamespace", "makeDataContractsExtensible", "initializeCollections", "addNamespaces",
    "exportValueTypes", "excludeNamespace"]}

# ServiceStack's default data contract namespace, which a C# or VB.NET header lists.
CONFIG_FLAGS["addDefaultXmlNamespace"] = "http://schemas.servicestack.net/types"

VERB_INTERFACES = {"GET": "IGet", "POST": "IPost", "PUT": "IPut", "DELETE": "IDelete"}

# --- enums --------------------------------------------------------------------------------

TIERS = [
    ("ProgrammingLanguage", "Programming Languages"), ("Client", "Client Libraries"),
    ("Http", "HTTP Server Technologies"), ("Server", "Server Libraries"),
    ("Data", "Databases and NoSQL Datastores"), ("SoftwareInfrastructure", "Server Software"),
    ("OperatingSystem", "Operating Systems"), ("HardwareInfrastructure", "Cloud/Hardware Infrastructure"),
    ("ThirdPartyServices", "3rd Party APIs/Services"),
]
POST_TYPES = [("Announcement", "Announcements"), ("Post", "Posts"), ("Showcase", "Showcase"),
              ("Question", "Questions"), ("Request", "Feature Requests")]
FLAG_TYPES = [("Violation", "Violates Rules or Conduct"), ("Spam", "This is Spam"),
              ("Abusive", "This is abusive or harmful"),
              ("Confidential", "This contains something private that shouldn't be posted in public"),
              ("OffTopic", "This is off topic"), ("Other", "Other Issues")]


def document():
    ENUMS.clear()
    enums = [
        enum("TechnologyTier", TYPES, [n for n, _ in TIERS], [d for _, d in TIERS]),
        enum("PostType", TYPES, [n for n, _ in POST_TYPES], [d for _, d in POST_TYPES]),
        enum("FlagType", TYPES, [n for n, _ in FLAG_TYPES], [d for _, d in FLAG_TYPES]),
    ]

    technology_fields = [
        ("Id", "Int64", {"isPrimaryKey": True}), ("Name", "String"), ("VendorName", "String"), ("VendorUrl", "String"),
        ("ProductUrl", "String"), ("LogoUrl", "String"), ("Description", "String"), ("Created", "DateTime"),
        ("CreatedBy", "String"), ("LastModified", "DateTime"), ("LastModifiedBy", "String"), ("OwnerId", "String"),
        ("Slug", "String"), ("LogoApproved", "Boolean"), ("IsLocked", "Boolean"), ("Tier", "TechnologyTier"),
        ("LastStatusUpdate", "DateTime?"), ("OrganizationId", "Int32?"), ("CommentsPostId", "Int64?"),
        ("ViewCount", "Int32"), ("FavCount", "Int32"),
    ]
    stack_fields = [
        ("Id", "Int64", {"isPrimaryKey": True}), ("Name", "String"), ("VendorName", "String"), ("Description", "String"),
        ("AppUrl", "String"), ("ScreenshotUrl", "String"), ("Created", "DateTime"), ("CreatedBy", "String"),
        ("LastModified", "DateTime"), ("LastModifiedBy", "String"), ("IsLocked", "Boolean"), ("OwnerId", "String"),
        ("Slug", "String"), ("Details", "String", MAX_TEXT), ("DetailsHtml", "String", MAX_TEXT), ("LastStatusUpdate", "DateTime?"),
        ("OrganizationId", "Int32?"), ("CommentsPostId", "Int64?"), ("ViewCount", "Int32"), ("FavCount", "Int32"),
    ]

    def props(fields):
        return [prop(f[0], f[1], **(f[2] if len(f) > 2 else {})) for f in fields]

    def view(fields):
        # Every value type nullable, so columns left out by `fields=` disappear.
        out = []
        for f in fields:
            spec = f[1]
            if spec in VALUE_TYPES or spec in ENUMS:
                spec += "?"
            out.append(prop(f[0], spec))
        return out

    post_fields = [
        ("Id", "Int64", {"isPrimaryKey": True}), ("OrganizationId", "Int32"), ("UserId", "Int32"), ("Type", "PostType"),
        ("CategoryId", "Int32"), ("Title", "String"), ("Slug", "String"), ("Url", "String"), ("ImageUrl", "String"),
        ("Content", "String", MAX_TEXT), ("ContentHtml", "String", MAX_TEXT), ("PinCommentId", "Int64?"), ("TechnologyIds", "Int32[]"),
        ("FromDate", "DateTime?"), ("ToDate", "DateTime?"), ("Location", "String"), ("MetaType", "String"),
        ("Meta", "String"), ("Approved", "Boolean"), ("UpVotes", "Int64"), ("DownVotes", "Int64"), ("Points", "Int64"),
        ("Views", "Int64"), ("Favorites", "Int64"), ("Subscribers", "Int32"), ("ReplyCount", "Int32"),
        ("CommentsCount", "Int32"), ("WordCount", "Int32"), ("ReportCount", "Int32"), ("LinksCount", "Int32"),
        ("LinkedToCount", "Int32"), ("Score", "Int32"), ("Rank", "Int32"), ("Labels", "String[]"),
        ("RefUserIds", "Int32[]"), ("RefLinks", "String[]"), ("MuteUserIds", "Int32[]"),
        ("LastCommentDate", "DateTime?"), ("LastCommentId", "Int64?"), ("LastCommentUserId", "Int32?"),
        ("Deleted", "DateTime?"), ("DeletedBy", "String"), ("Locked", "DateTime?"), ("LockedBy", "String"),
        ("Hidden", "DateTime?"), ("HiddenBy", "String"), ("Status", "String"), ("StatusDate", "DateTime?"),
        ("StatusBy", "String"), ("Archived", "Boolean"), ("Bumped", "DateTime?"), ("Created", "DateTime"),
        ("CreatedBy", "String"), ("Modified", "DateTime"), ("ModifiedBy", "String"), ("RefId", "Int64?"),
        ("RefSource", "String"), ("RefUrn", "String"),
    ]

    types = [
        dto("ResponseStatus", SS, props([("ErrorCode", "String"), ("Message", "String"), ("StackTrace", "String"),
                                         ("Errors", "List<ResponseError>"), ("Meta", "Dictionary<String,String>")]),
            dataContract={}),
        dto("ResponseError", SS, props([("ErrorCode", "String"), ("FieldName", "String"), ("Message", "String"),
                                        ("Meta", "Dictionary<String,String>")]), dataContract={}),
        dto("QueryBase", SS, props([("Skip", "Int32?"), ("Take", "Int32?"), ("OrderBy", "String"), ("OrderByDesc", "String"),
                                    ("Include", "String"), ("Fields", "String"), ("Meta", "Dictionary<String,String>")]),
            isAbstract=True, dataContract={}),
        dto("QueryDb`1", SS, [], inherits=name_ref("QueryBase", SS), genericArgs=["T"], isAbstract=True,
            implements=[name_ref("IReturn`1", SS, "QueryResponse<T>")]),
        dto("QueryDb`2", SS, [], inherits=name_ref("QueryBase", SS), genericArgs=["From", "Into"], isAbstract=True,
            implements=[name_ref("IReturn`1", SS, "QueryResponse<Into>")]),
        dto("QueryResponse`1", SS, props([("Offset", "Int32"), ("Total", "Int32"), ("Results", "List<T>"),
                                          ("Meta", "Dictionary<String,String>"), ("ResponseStatus", "ResponseStatus")]),
            genericArgs=["T"], isGenericTypeDef=True, dataContract={}),
        *enums,
        # The marker the page-view counting services implement.
        dto("IRegisterStats", MODEL, [], isInterface=True),
        dto("TechnologyBase", TYPES, props(technology_fields), isAbstract=True),
        dto("Technology", TYPES, [], inherits=name_ref("TechnologyBase", TYPES)),
        dto("TechnologyView", TYPES, view(technology_fields)),
        dto("TechnologyStackBase", TYPES, props(stack_fields), isAbstract=True),
        dto("TechnologyStack", TYPES, [], inherits=name_ref("TechnologyStackBase", TYPES)),
        dto("TechnologyStackView", TYPES, view(stack_fields)),
        dto("TechStackDetails", MODEL, props([("TechnologyChoices", "List<TechnologyInStack>")]),
            inherits=name_ref("TechnologyStackBase", TYPES)),
        dto("TechnologyInStack", MODEL, props([("TechnologyId", "Int64"), ("TechnologyStackId", "Int64"), ("Justification", "String")]),
            inherits=name_ref("TechnologyBase", TYPES)),
        dto("TechnologyInfo", MODEL, props([("Tier", "TechnologyTier"), ("Slug", "String"), ("Name", "String"),
                                            ("LogoUrl", "String"), ("StacksCount", "Int32")])),
        dto("UserInfo", MODEL, props([("UserName", "String"), ("AvatarUrl", "String"), ("StacksCount", "Int32")])),
        dto("LabelInfo", MODEL, props([("Slug", "String"), ("Color", "String")])),
        dto("CategoryInfo", MODEL, props([("Id", "Int32"), ("Name", "String"), ("Slug", "String")])),
        dto("OrganizationInfo", MODEL, props([
            ("Id", "Int32"), ("Name", "String"), ("Slug", "String"), ("RefId", "Int64?"), ("RefSource", "String"),
            ("UpVotes", "Int64?"), ("DownVotes", "Int64?"), ("MembersCount", "Int64"), ("Rank", "Int32"),
            ("DisableInvites", "Boolean?"), ("Lang", "String"), ("PostTypes", "String[]"), ("ModeratorPostTypes", "String[]"),
            ("Locked", "DateTime?"), ("Labels", "List<LabelInfo>"), ("Categories", "List<CategoryInfo>")])),
        dto("Option", MODEL, [prop("Name", "String", dataMember={"name": "name"}), prop("Title", "String", dataMember={"name": "title"}),
                              prop("Value", "TechnologyTier?", dataMember={"name": "value"})], dataContract={}),
        dto("Post", TYPES, props(post_fields)),
    ]

    operations = []

    def op(name, properties, response, verb, routes, *, actions=None, inherits=None, implements=None, attributes=None,
           response_props=None, requires_auth=False, tags=()):
        request_implements = list(implements or [])
        if implements is None:
            request_implements = [returns(response)]
            if verb in VERB_INTERFACES:
                request_implements.append(name_ref(VERB_INTERFACES[verb], SS))
        request = dto(name, MODEL, properties, inherits=inherits, implements=request_implements, attributes=attributes)
        entry = {"request": request}
        if response_props is not None:
            entry["response"] = dto(response, MODEL, response_props)
        entry["actions"] = actions or [verb if verb else "ANY"]
        if verb:
            entry["method"] = verb
        if response.startswith("QueryResponse<"):
            entry["returnType"] = name_ref("QueryResponse`1", SS, response[len("QueryResponse<"):-1])
        else:
            entry["returnType"] = name_ref(response, MODEL)
        entry["routes"] = [dict({"path": path}, **({"verbs": verbs} if verbs else {})) for path, verbs in routes]
        if requires_auth:
            entry["requiresAuth"] = True
        if tags:
            entry["tags"] = list(tags)
        operations.append(entry)

    def writes(entity, route, fields, result, tag):
        """Create (POST route), Update (PUT route/{Id}) and Delete (DELETE route/{Id}): `[Authenticate]`."""
        op(f"Create{entity}", props(fields), f"Create{entity}Response", "POST", [(route, "POST")],
           response_props=result, requires_auth=True, tags=[tag])
        op(f"Update{entity}", props([("Id", "Int64")] + [f for f in fields if f[0] != "Slug"]), f"Update{entity}Response",
           "PUT", [(route + "/{Id}", "PUT")], response_props=result, requires_auth=True, tags=[tag])
        op(f"Delete{entity}", props([("Id", "Int64")]), f"Delete{entity}Response", "DELETE", [(route + "/{Id}", "DELETE")],
           response_props=result, requires_auth=True, tags=[tag])

    status = [prop("ResponseStatus", "ResponseStatus")]
    query_props = props([("Ids", "List<Int64>"), ("Name", "String"), ("VendorName", "String"), ("NameContains", "String"),
                         ("VendorNameContains", "String"), ("DescriptionContains", "String")])

    op("AppOverview", props([("Reload", "Boolean")]), "AppOverviewResponse", "GET", [("/app-overview", None)],
       actions=["ANY"], response_props=props([("Created", "DateTime"), ("AllTiers", "List<Option>"),
                                              ("TopTechnologies", "List<TechnologyInfo>")]) + status, tags=["Site"])
    op("Overview", props([("Reload", "Boolean")]), "OverviewResponse", "GET", [("/overview", None)], actions=["ANY"],
       response_props=props([("Created", "DateTime"), ("TopUsers", "List<UserInfo>"), ("TopTechnologies", "List<TechnologyInfo>"),
                             ("LatestTechStacks", "List<TechStackDetails>"), ("PopularTechStacks", "List<TechnologyStack>"),
                             ("AllOrganizations", "List<OrganizationInfo>"),
                             ("TopTechnologiesByTier", "Dictionary<String,List<TechnologyInfo>>")]) + status, tags=["Site"])
    op("GetConfig", [], "GetConfigResponse", "GET", [("/config", None)], actions=["ANY"],
       response_props=props([("AllTiers", "List<Option>"), ("AllPostTypes", "List<Option>"), ("AllFlagTypes", "List<Option>")]),
       tags=["Site"])

    registers_stats = [name_ref("IRegisterStats", MODEL), name_ref("IGet", SS)]
    op("GetTechnology", props([("Slug", "String")]), "GetTechnologyResponse", "GET", [("/technology/{Slug}", None)],
       implements=[returns("GetTechnologyResponse")] + registers_stats,
       response_props=props([("Created", "DateTime"), ("Technology", "Technology"),
                             ("TechnologyStacks", "List<TechnologyStack>")]) + status, tags=["Tech"])
    op("GetAllTechnologies", [], "GetAllTechnologiesResponse", "GET", [("/technology", "GET")],
       response_props=props([("Results", "List<Technology>"), ("Total", "Int64")]), tags=["Tech"])

    tech_query = name_ref("QueryDb`2", SS, "Technology", "TechnologyView")
    tech_returns = [name_ref("IReturn`1", SS, "QueryResponse<TechnologyView>")]
    op("FindTechnologies", query_props, "QueryResponse<TechnologyView>", None, [("/technology/search", None)],
       inherits=tech_query, implements=tech_returns, tags=["AutoQuery", "Tech"],
       attributes=[{"name": "QueryDb", "constructorArgs": [{"name": "defaultTerm", "type": "QueryTerm", "value": "Or"}]},
                   attribute("AutoQueryViewer", Title="Find Technologies", Description="Explore different Technologies",
                             IconUrl="octicon:database", DefaultSearchField="Tier", DefaultSearchType="=",
                             DefaultSearchText="Data")])
    op("QueryTechnology", query_props, "QueryResponse<TechnologyView>", None, [("/technology/query", None)],
       inherits=tech_query, implements=tech_returns, tags=["AutoQuery", "Tech"])

    write_props = [("Name", "String"), ("Slug", "String"), ("VendorName", "String"), ("VendorUrl", "String"),
                   ("ProductUrl", "String"), ("LogoUrl", "String"), ("Description", "String"), ("IsLocked", "Boolean"),
                   ("Tier", "TechnologyTier")]
    writes("Technology", "/technology", write_props, props([("Result", "Technology")]) + status, "Tech")

    op("GetTechnologyStack", props([("Slug", "String")]), "GetTechnologyStackResponse", "GET", [("/techstacks/{Slug}", "GET")],
       implements=[returns("GetTechnologyStackResponse")] + registers_stats,
       response_props=props([("Created", "DateTime"), ("Result", "TechStackDetails")]) + status, tags=["TechStacks"])
    op("GetAllTechnologyStacks", [], "GetAllTechnologyStacksResponse", "GET", [("/techstacks", "GET")],
       response_props=props([("Results", "List<TechnologyStack>"), ("Total", "Int64")]), tags=["TechStacks"])

    stack_query = name_ref("QueryDb`2", SS, "TechnologyStack", "TechnologyStackView")
    stack_returns = [name_ref("IReturn`1", SS, "QueryResponse<TechnologyStackView>")]
    op("FindTechStacks", query_props, "QueryResponse<TechnologyStackView>", None, [("/techstacks/search", None)],
       inherits=stack_query, implements=stack_returns, tags=["AutoQuery", "TechStacks"],
       attributes=[{"name": "QueryDb", "constructorArgs": [{"name": "defaultTerm", "type": "QueryTerm", "value": "Or"}]},
                   attribute("AutoQueryViewer", Title="Find Technology Stacks", Description="Explore different Technology Stacks",
                             IconUrl="material-icons:cloud", DefaultSearchField="Description", DefaultSearchType="Contains",
                             DefaultSearchText="ServiceStack")])
    op("QueryTechStacks", query_props, "QueryResponse<TechnologyStackView>", None, [("/techstacks/query", None)],
       inherits=stack_query, implements=stack_returns, tags=["AutoQuery", "TechStacks"])

    stack_write = [("Name", "String"), ("Slug", "String"), ("VendorName", "String"), ("AppUrl", "String"),
                   ("ScreenshotUrl", "String"), ("Description", "String"), ("Details", "String"), ("IsLocked", "Boolean"),
                   ("TechnologyIds", "List<Int64>")]
    writes("TechnologyStack", "/techstacks", stack_write, props([("Result", "TechStackDetails")]) + status, "TechStacks")

    op("QueryPosts", props([("Ids", "Int32[]"), ("OrganizationId", "Int32?"), ("OrganizationIds", "List<Int32>"),
                            ("Types", "HashSet<String>"), ("AnyTechnologyIds", "HashSet<Int32>"), ("Is", "String[]")]),
       "QueryResponse<Post>", None, [("/posts", "GET")], actions=["ANY"], inherits=name_ref("QueryDb`1", SS, "Post"),
       implements=[name_ref("IReturn`1", SS, "QueryResponse<Post>")], tags=["AutoQuery", "Posts"])

    return {
        "config": dict({"baseUrl": "https://techstacks.io"}, **CONFIG_FLAGS, defaultNamespaces=[
            "System", "System.Collections", "System.Collections.Generic", "System.Runtime.Serialization",
            "ServiceStack", "ServiceStack.DataAnnotations"]),
        "namespaces": [COLL, SYS, SS, MODEL, TYPES],
        "types": sorted(types, key=lambda t: TYPE_ORDER.index(t["name"]) if t["name"] in TYPE_ORDER else -1),
        "operations": sorted(operations, key=lambda o: OPERATION_ORDER.index(o["request"]["name"])),
    }


# The order techstacks.io's /types/metadata lists them in (its /types/swift follows it); the
# ServiceStack types it declares come first.
OPERATION_ORDER = [
    "QueryPosts", "GetAllTechnologies", "FindTechnologies", "QueryTechnology", "GetTechnology", "CreateTechnology",
    "UpdateTechnology", "DeleteTechnology", "FindTechStacks", "QueryTechStacks", "Overview", "AppOverview",
    "GetAllTechnologyStacks", "GetTechnologyStack", "GetConfig", "CreateTechnologyStack", "UpdateTechnologyStack",
    "DeleteTechnologyStack",
]
TYPE_ORDER = [
    "Post", "PostType", "FlagType", "Technology", "TechnologyView", "IRegisterStats", "TechnologyTier", "TechnologyStack",
    "TechnologyStackView", "UserInfo", "TechnologyInfo", "TechStackDetails", "OrganizationInfo", "Option", "TechnologyBase",
    "TechnologyStackBase", "TechnologyInStack", "LabelInfo", "CategoryInfo",
]
